// Leaderboards: one per game and `all`, ranked by the rating's ordinal.
import { api } from "../api/client";
import { formatNumber, t } from "../i18n";
import { go, href } from "../router";
import { ErrorNote } from "../ui/ErrorNote";
import { gameName } from "../ui/engines";
import { useLoad } from "../ui/hooks";
import { Choice } from "../ui/Tabs";

const boardName = (board: string) => (board === "all" ? t("leaderboards.all") : gameName(board));

export function LeaderboardsScreen({ board = "all" }: { board?: string }) {
  const boards = useLoad(api.boards, []);
  const rows = useLoad(() => api.leaderboard(board), [board]);
  return (
    <section class="panel" aria-labelledby="boards-title">
      <h2 id="boards-title">{t("leaderboards.title")}</h2>
      <ErrorNote error={boards.error ?? rows.error} />
      {boards.data && <Choice label={t("leaderboards.choose")} value={board}
                              options={boards.data.map((b) => ({ value: b, label: boardName(b) }))}
                              onChange={(b) => go({ name: "leaderboards", board: b })} />}
      {rows.data && rows.data.entries.length === 0 && <p>{t("leaderboards.empty")}</p>}
      {rows.data && rows.data.entries.length > 0 && (
        <div class="scroll-x">
          <table>
            <caption>{boardName(board)}</caption>
            <thead><tr>
              <th scope="col">{t("game.rank")}</th><th scope="col">{t("game.player")}</th>
              <th scope="col">{t("leaderboards.rating")}</th><th scope="col">{t("leaderboards.games")}</th>
            </tr></thead>
            <tbody>
              {rows.data.entries.map((row) => (
                <tr key={row.player_id}>
                  <td>{row.rank}</td>
                  <td><a href={href({ name: "player", id: row.player_id })}>{row.name ?? row.player_id}</a></td>
                  <td title={t("leaderboards.muSigma", { mu: row.mu.toFixed(1), sigma: row.sigma.toFixed(1) })}>{formatNumber(Math.round(row.ordinal * 10) / 10)}</td>
                  <td>{row.games}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
