// The shell: a header with the navigation and who is signed in, then the screen the URL names.
import { t } from "./i18n";
import { href, useRoute } from "./router";
import { AccountScreen } from "./screens/Account";
import { CreateTableScreen } from "./screens/CreateTable";
import { LeaderboardsScreen } from "./screens/Leaderboards";
import { LobbyScreen } from "./screens/Lobby";
import { PlayerPage } from "./screens/PlayerPage";
import { TableRoom } from "./screens/TableRoom";
import { signedOutReason } from "./api/auth";
import { useSession } from "./ui/hooks";
import { useMyTurns } from "./ui/myTurns";

export function App() {
  const route = useRoute();
  const me = useSession();
  const waiting = useMyTurns(Boolean(me));
  return (
    <>
      <a class="skip" href="#main">{t("nav.skip")}</a>
      <header class="top">
        <a class="brand" href={href({ name: "lobby" })}>{t("app.name")}</a>
        <nav aria-label={t("nav.label")}>
          <a href={href({ name: "lobby" })} aria-current={route.name === "lobby" ? "page" : undefined}>{t("nav.lobby")}
            {waiting > 0 && <span class="badge turn-badge" data-my-turns={waiting} role="status">{t("nav.yourTurns", { count: waiting })}</span>}</a>
          <a href={href({ name: "create" })} aria-current={route.name === "create" ? "page" : undefined}>{t("nav.create")}</a>
          <a href={href({ name: "leaderboards" })} aria-current={route.name === "leaderboards" ? "page" : undefined}>{t("nav.leaderboards")}</a>
          <a href={href({ name: "account" })} aria-current={route.name === "account" ? "page" : undefined} data-me={me?.playerId ?? ""}>
            {me ? t("nav.signedInAs", { name: me.name }) : t("nav.signIn")}</a>
          <a href="/docs">{t("nav.apiDocs")}</a>
        </nav>
      </header>
      <main id="main" tabIndex={-1}>
        {!me && <SignedOutNotice />}
        {route.name === "lobby" && <LobbyScreen />}
        {route.name === "create" && <CreateTableScreen />}
        {route.name === "table" && <TableRoom key={route.id} id={route.id} invite={route.invite} />}
        {route.name === "leaderboards" && <LeaderboardsScreen board={route.board} />}
        {route.name === "player" && <PlayerPage id={route.id} />}
        {route.name === "account" && <AccountScreen />}
      </main>
    </>
  );
}

/** Said once the lobby ended this browser's session (signed out everywhere, banned, erased). */
function SignedOutNotice() {
  const reason = signedOutReason();
  if (!reason) return null;
  return <p class="notice banner" role="status" data-signed-out={reason}>{t(`auth.signedOut.${reason}`)}{" "}
    <a href={href({ name: "account" })}>{t("nav.signIn")}</a></p>;
}
