// Signing in (log in, sign up, play as a guest) and the account page: claim a guest account, change the
// password, log out here or everywhere, delete the account. Tokens are auth.ts's business.
import { useState } from "preact/hooks";
import {
  changePassword, claimAccount, deleteAccount, logIn, logOut, logOutEverywhere, playAsGuest, signUp,
} from "../api/auth";
import { t } from "../i18n";
import { href } from "../router";
import { ErrorNote } from "../ui/ErrorNote";
import { useAction, useSession } from "../ui/hooks";

/** A name and a password, as a form with a submit button (log in, sign up, claim). */
function Credentials({ id, submit, label, newPassword }:
  { id: string; submit: (name: string, password: string) => Promise<unknown>; label: string; newPassword: boolean }) {
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const action = useAction();
  return (
    <form onSubmit={(e) => { e.preventDefault(); void action.run(() => submit(name.trim(), password)); }}>
      <label for={`${id}-name`}>{t("auth.name")}</label>
      <input id={`${id}-name`} name="username" required maxLength={64} autoComplete="username"
             aria-describedby={newPassword ? `${id}-name-help` : undefined}
             value={name} onInput={(e) => setName(e.currentTarget.value)} />
      {newPassword && <small id={`${id}-name-help`}>{t("auth.nameHelp")}</small>}
      <label for={`${id}-password`}>{t("auth.password")}</label>
      <input id={`${id}-password`} name="password" type="password" required maxLength={256}
             minLength={newPassword ? 10 : undefined} autoComplete={newPassword ? "new-password" : "current-password"}
             aria-describedby={newPassword ? `${id}-password-help` : undefined}
             value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
      {newPassword && <small id={`${id}-password-help`}>{t("auth.passwordHelp")}</small>}
      <button type="submit" disabled={action.busy}>{label}</button>
      <ErrorNote error={action.error} />
    </form>
  );
}

export function SignIn() {
  const guest = useAction();
  return (
    <section class="panel sign-in" aria-labelledby="sign-in-title">
      <h2 id="sign-in-title">{t("auth.title")}</h2>
      <div class="columns">
        <div>
          <h3>{t("auth.logInTitle")}</h3>
          <Credentials id="log-in" submit={logIn} label={t("auth.logIn")} newPassword={false} />
        </div>
        <div>
          <h3>{t("auth.signUpTitle")}</h3>
          <Credentials id="sign-up" submit={signUp} label={t("auth.signUp")} newPassword />
        </div>
      </div>
      <h3>{t("auth.guestTitle")}</h3>
      <p>{t("auth.guestHelp")}</p>
      <button type="button" class="secondary" disabled={guest.busy} onClick={() => guest.run(playAsGuest)}>
        {t("auth.playAsGuest")}</button>
      <ErrorNote error={guest.error} />
    </section>
  );
}

export function AccountScreen() {
  const me = useSession();
  const leaving = useAction();
  if (!me) return <SignIn />;
  return (
    <section class="panel account" aria-labelledby="account-title">
      <h2 id="account-title">{t("account.title")}</h2>
      <dl class="facts">
        <dt>{t("account.name")}</dt><dd>{me.name}{me.guest && <span class="tag">{t("account.guest")}</span>}</dd>
        <dt>{t("account.id")}</dt><dd><code>{me.playerId}</code></dd>
        <dt>{t("account.role")}</dt><dd>{t(`role.${me.role}`)}</dd>
      </dl>
      <p><a href={href({ name: "player", id: me.playerId })}>{t("account.history")}</a></p>
      {me.guest ? (
        <>
          <h3>{t("account.claimTitle")}</h3>
          <p>{t("account.claimHelp")}</p>
          <Credentials id="claim" submit={claimAccount} label={t("account.claim")} newPassword />
        </>
      ) : <PasswordChange />}
      <h3>{t("account.sessionsTitle")}</h3>
      <p>{t("account.sessionsHelp")}</p>
      <div class="row">
        <button type="button" class="secondary" disabled={leaving.busy} onClick={() => leaving.run(logOut)}>{t("auth.logOut")}</button>
        <button type="button" class="secondary" disabled={leaving.busy} onClick={() => leaving.run(logOutEverywhere)}>
          {t("account.logOutEverywhere")}</button>
      </div>
      <ErrorNote error={leaving.error} />
      <DeleteAccount guest={me.guest} />
    </section>
  );
}

function PasswordChange() {
  const [old, setOld] = useState("");
  const [fresh, setFresh] = useState("");
  const [done, setDone] = useState(false);
  const action = useAction();
  const submit = () => action.run(async () => { await changePassword(old, fresh); setOld(""); setFresh(""); setDone(true); });
  return (
    <form onSubmit={(e) => { e.preventDefault(); setDone(false); void submit(); }}>
      <h3>{t("account.passwordTitle")}</h3>
      <p>{t("account.passwordHelp")}</p>
      <label for="old-password">{t("auth.oldPassword")}</label>
      <input id="old-password" type="password" required autoComplete="current-password" maxLength={256}
             value={old} onInput={(e) => setOld(e.currentTarget.value)} />
      <label for="new-password">{t("auth.newPassword")}</label>
      <input id="new-password" type="password" required minLength={10} maxLength={256} autoComplete="new-password"
             aria-describedby="new-password-help" value={fresh} onInput={(e) => setFresh(e.currentTarget.value)} />
      <small id="new-password-help">{t("auth.passwordHelp")}</small>
      <button type="submit" disabled={action.busy}>{t("account.changePassword")}</button>
      {done && <p role="status">{t("account.passwordChanged")}</p>}
      <ErrorNote error={action.error} />
    </form>
  );
}

function DeleteAccount({ guest }: { guest: boolean }) {
  const [password, setPassword] = useState("");
  const [sure, setSure] = useState(false);
  const action = useAction();
  return (
    <form class="danger" onSubmit={(e) => { e.preventDefault(); void action.run(() => deleteAccount(guest ? null : password)); }}>
      <h3>{t("account.deleteTitle")}</h3>
      <p>{t("account.deleteHelp")}</p>
      {!guest && <>
        <label for="delete-password">{t("auth.password")}</label>
        <input id="delete-password" type="password" required autoComplete="current-password" maxLength={256}
               value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
      </>}
      <label class="check"><input type="checkbox" checked={sure} onChange={(e) => setSure(e.currentTarget.checked)} />
        {t("account.deleteConfirm")}</label>
      <button type="submit" class="danger" disabled={!sure || action.busy}>{t("account.delete")}</button>
      <ErrorNote error={action.error} />
    </form>
  );
}
