"""Stellar Ventures data files (YAML); a package so that installs ship them."""
