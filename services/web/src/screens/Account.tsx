// Sign up, log in with a kept token, and the account panel (name, id, token to keep, log out).
import { useState } from "preact/hooks";
import { logIn, logOut, signUp } from "../api/auth";
import { t } from "../i18n";
import { href } from "../router";
import { ErrorNote } from "../ui/ErrorNote";
import { useAction, useSession } from "../ui/hooks";

export function SignIn() {
  const [name, setName] = useState("");
  const [token, setToken] = useState("");
  const joining = useAction();
  const returning = useAction();
  return (
    <section class="panel sign-in" aria-labelledby="sign-in-title">
      <h2 id="sign-in-title">{t("auth.title")}</h2>
      <form onSubmit={(e) => { e.preventDefault(); void joining.run(() => signUp(name.trim())); }}>
        <label for="sign-up-name">{t("auth.name")}</label>
        <input id="sign-up-name" name="name" required maxLength={40} pattern="[\w .\-]+" autoComplete="nickname"
               value={name} onInput={(e) => setName(e.currentTarget.value)} />
        <button type="submit" disabled={joining.busy}>{t("auth.signUp")}</button>
        <ErrorNote error={joining.error} />
      </form>
      <details>
        <summary>{t("auth.haveToken")}</summary>
        <form onSubmit={(e) => { e.preventDefault(); void returning.run(() => logIn(token.trim())); }}>
          <label for="log-in-token">{t("auth.token")}</label>
          <input id="log-in-token" name="token" required autoComplete="off" spellcheck={false}
                 value={token} onInput={(e) => setToken(e.currentTarget.value)} />
          <button type="submit" disabled={returning.busy}>{t("auth.logIn")}</button>
          <ErrorNote error={returning.error} />
        </form>
      </details>
    </section>
  );
}

export function AccountScreen() {
  const me = useSession();
  const [shown, setShown] = useState(false);
  if (!me) return <SignIn />;
  return (
    <section class="panel" aria-labelledby="account-title">
      <h2 id="account-title">{t("account.title")}</h2>
      <dl class="facts">
        <dt>{t("account.name")}</dt><dd>{me.name}</dd>
        <dt>{t("account.id")}</dt><dd><code>{me.playerId}</code></dd>
      </dl>
      <p>{t("account.tokenHelp")}</p>
      <button type="button" aria-expanded={shown} onClick={() => setShown(!shown)}>
        {shown ? t("account.hideToken") : t("account.showToken")}
      </button>
      {shown && <p><code class="token" aria-label={t("auth.token")}>{me.token}</code></p>}
      <p><a href={href({ name: "player", id: me.playerId })}>{t("account.history")}</a></p>
      <button type="button" class="secondary" onClick={logOut}>{t("auth.logOut")}</button>
    </section>
  );
}
