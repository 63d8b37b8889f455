// The one place the client speaks HTTP. Every call names a route of routes.json (checked against the
// lobby's OpenAPI document by tests/web/test_api_contract.py), so the client cannot drift from the API.
import routes from "./routes.json";

export type RouteName = Exclude<keyof typeof routes, "_comment">;
type Scalar = string | number | boolean | null | undefined;

export interface CallParams {
  path?: Record<string, string>;
  query?: Record<string, Scalar>;
  body?: unknown;
  token?: string | null;
}

/** A refusal from the lobby: its stable code, its message, the HTTP status, and for a 429 the seconds to wait. */
export class ApiError extends Error {
  constructor(readonly status: number, readonly code: string, message: string, readonly retryAfter: number | null = null) {
    super(message);
  }
}

/** Raised when the lobby cannot be reached at all (network down, server stopped). */
export const UNREACHABLE = "UNREACHABLE";

export function routeUrl(name: RouteName, params: CallParams = {}): string {
  let path: string = routes[name].path;
  for (const [key, value] of Object.entries(params.path ?? {})) {
    path = path.replace(`{${key}}`, encodeURIComponent(value));
  }
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params.query ?? {})) {
    if (value !== undefined && value !== null && value !== "") query.set(key, String(value));
  }
  const search = query.toString();
  return search ? `${path}?${search}` : path;
}

export async function call<T>(name: RouteName, params: CallParams = {}): Promise<T> {
  const route = routes[name];
  const headers: Record<string, string> = { Accept: "application/json" };
  if (params.token) headers.Authorization = `Bearer ${params.token}`;
  let body: string | undefined;
  if (route.method === "POST" || route.method === "PUT" || params.body !== undefined) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(params.body ?? {});
  }
  let reply: Response;
  try {
    reply = await fetch(routeUrl(name, params), { method: route.method, headers, body });
  } catch (error) {
    throw new ApiError(0, UNREACHABLE, String(error));
  }
  const text = await reply.text();
  const parsed = text ? safeJson(text) : null;
  if (!reply.ok) {
    const detail = (parsed as { error?: { code?: string; message?: string } } | null)?.error;
    throw new ApiError(reply.status, detail?.code ?? `HTTP_${reply.status}`, detail?.message ?? reply.statusText,
                       retryAfter(reply.headers.get("Retry-After")));
  }
  return parsed as T;
}

/** Retry-After in seconds (the lobby sends whole seconds; an HTTP date is read too). */
function retryAfter(header: string | null): number | null {
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, Math.ceil(seconds));
  const when = Date.parse(header);
  return Number.isNaN(when) ? null : Math.max(0, Math.ceil((when - Date.now()) / 1000));
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
