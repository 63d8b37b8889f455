import { useEffect, useState } from "preact/hooks";
import { ApiError } from "../api/client";
import { UNREACHABLE } from "../api/http";
import { t, tx } from "../i18n";

/** An error in words: the catalogue's text for a known refusal code, else the lobby's own message. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.code === UNREACHABLE) return t("error.unreachable");
    return tx(`error.${error.code}`, t("error.refused", { message: error.message, code: error.code }),
              { seconds: error.retryAfter ?? 1 });
  }
  return t("error.unexpected", { message: String(error) });
}

export function ErrorNote({ error }: { error: unknown }) {
  if (!error) return null;
  if (error instanceof ApiError && error.status === 429) return <Wait error={error} />;
  return <p class="error" role="alert">{describeError(error)}</p>;
}

/** A limit was reached: say so politely, and count the wait down (Retry-After) to the moment to try again. */
function Wait({ error }: { error: ApiError }) {
  const [left, setLeft] = useState(error.retryAfter ?? 1);
  useEffect(() => {
    setLeft(error.retryAfter ?? 1);
    const timer = window.setInterval(() => setLeft((seconds) => Math.max(0, seconds - 1)), 1000);
    return () => window.clearInterval(timer);
  }, [error]);
  return (
    <p class="error wait" role="alert" data-retry-after={error.retryAfter ?? ""}>
      {left > 0 ? t("error.RATE_LIMITED", { seconds: left }) : t("error.rateLimitOver")}
    </p>
  );
}
