// The English message catalogue: every text the client shows, in one object made of one part per area
// (a game's board adds its own part, `<game>.…` keys). tests/web/test_client_source.py checks that no
// key is in two parts, that every key is shown somewhere, and that no text is written into a screen.
import { accounts } from "./en-accounts";
import { core } from "./en-core";
import { moon21 } from "./en-moon21";
import { stellar } from "./en-stellar";
import { t2038 } from "./en-t2038";
import { trucker } from "./en-trucker";

export const en = { ...core, ...accounts, ...moon21, ...t2038, ...stellar, ...trucker } as const;
