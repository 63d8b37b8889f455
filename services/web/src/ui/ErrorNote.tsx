import { ApiError } from "../api/client";
import { UNREACHABLE } from "../api/http";
import { t, tx } from "../i18n";

/** An error in words: the catalogue's text for a known refusal code, else the lobby's own message. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.code === UNREACHABLE) return t("error.unreachable");
    return tx(`error.${error.code}`, t("error.refused", { message: error.message, code: error.code }));
  }
  return t("error.unexpected", { message: String(error) });
}

export function ErrorNote({ error }: { error: unknown }) {
  if (!error) return null;
  return <p class="error" role="alert">{describeError(error)}</p>;
}
