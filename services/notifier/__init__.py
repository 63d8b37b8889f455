"""The notifier: tells players, by signed webhook and e-mail, when it is their turn and more (docs/notifier.md)."""
