// A player's finished games and their rating over time (the ordinal after each game, from the history).
import { api } from "../api/client";
import type { HistoryEntry } from "../api/types";
import { formatTime, t } from "../i18n";
import { href } from "../router";
import { ErrorNote } from "../ui/ErrorNote";
import { gameName } from "../ui/engines";
import { useLoad } from "../ui/hooks";

const ordinal = (entry: HistoryEntry) => {
  const rating = entry.rating_after;
  if (!rating) return null;
  return typeof rating.ordinal === "number" ? rating.ordinal : rating.mu - 3 * rating.sigma;
};

export function PlayerPage({ id }: { id: string }) {
  const history = useLoad(() => api.history(id), [id]);
  const games = history.data?.games ?? [];
  return (
    <section class="panel" aria-labelledby="player-title">
      <h2 id="player-title">{t("player.title", { name: history.data?.name ?? id })}</h2>
      <ErrorNote error={history.error} />
      {history.data && games.length === 0 && <p>{t("player.noGames")}</p>}
      {games.length > 0 && <RatingChart games={games} />}
      {games.length > 0 && (
        <div class="scroll-x">
          <table>
            <thead><tr>
              <th scope="col">{t("player.when")}</th><th scope="col">{t("player.game")}</th>
              <th scope="col">{t("game.rank")}</th><th scope="col">{t("game.score")}</th><th scope="col">{t("leaderboards.rating")}</th>
            </tr></thead>
            <tbody>
              {games.map((game) => (
                <tr key={game.game_id}>
                  <td>{formatTime(game.time)}</td>
                  <td><a href={href({ name: "table", id: game.game_id })}>{gameName(game.game)}</a></td>
                  <td>{t("player.rankOf", { rank: game.rank, players: game.players })}</td>
                  <td>{game.score ?? "—"}</td>
                  <td>{ordinal(game)?.toFixed(1) ?? "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

const WIDTH = 600, HEIGHT = 200, PAD = 32;

/** The rating (ordinal) after each game, as a line; the table below says the same in numbers. */
function RatingChart({ games }: { games: HistoryEntry[] }) {
  const first = games[0]?.rating_before;
  const start = first ? (typeof first.ordinal === "number" ? first.ordinal : first.mu - 3 * first.sigma) : null;
  const values = [start, ...games.map(ordinal)].filter((v): v is number => v !== null);
  if (values.length < 2) return null;
  const low = Math.min(...values), high = Math.max(...values), span = high - low || 1;
  const x = (i: number) => PAD + (i * (WIDTH - 2 * PAD)) / (values.length - 1);
  const y = (v: number) => HEIGHT - PAD - ((v - low) * (HEIGHT - 2 * PAD)) / span;
  const points = values.map((v, i) => `${x(i)},${y(v)}`).join(" ");
  return (
    <figure class="chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={t("player.chartLabel", { from: values[0].toFixed(1), to: values[values.length - 1].toFixed(1) })}>
        <line class="axis" x1={PAD} y1={HEIGHT - PAD} x2={WIDTH - PAD} y2={HEIGHT - PAD} />
        <line class="axis" x1={PAD} y1={PAD} x2={PAD} y2={HEIGHT - PAD} />
        <text x={4} y={PAD} class="tick">{high.toFixed(1)}</text>
        <text x={4} y={HEIGHT - PAD} class="tick">{low.toFixed(1)}</text>
        <polyline class="rating-line" points={points} />
        {values.map((v, i) => <circle key={i} class="rating-dot" cx={x(i)} cy={y(v)} r={3} />)}
      </svg>
      <figcaption>{t("player.chartCaption")}</figcaption>
    </figure>
  );
}
