// The server's tavli.v1 services over the Connect protocol, from the page's own origin, and the
// few things every screen needs around them: fresh request ids and a refusal in words.

import { Code, ConnectError, createClient, type Client, type Interceptor } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-web";
import { GamesService } from "../gen/tavli/v1/games_service_pb";
import { RulesService } from "../gen/tavli/v1/rules_service_pb";
import { BotsService } from "../gen/tavli/v1/bots_service_pb";
import { AnalysisService } from "../gen/tavli/v1/analysis_service_pb";
import { LadderService } from "../gen/tavli/v1/ladder_service_pb";
import { accountKey } from "./account";

export interface Api {
  games: Client<typeof GamesService>;
  rules: Client<typeof RulesService>;
  bots: Client<typeof BotsService>;
  analysis: Client<typeof AnalysisService>;
  ladder: Client<typeof LadderService>;
}

/** Every call carries the signed-in account's key, if any: the ladder's calls act for it, and a
 *  seat of a game the ladder started wants it as well as the seat's token. */
const withAccountKey: Interceptor = (next) => (request) => {
  const key = accountKey();
  if (key && !request.header.has("authorization")) {
    request.header.set("authorization", `Bearer ${key}`);
  }
  return next(request);
};

let api: Api | null = null;

/** The clients, made once, talking to the server that served the page. */
export function getApi(): Api {
  if (api === null) {
    const transport = createConnectTransport({ baseUrl: location.origin, interceptors: [withAccountKey] });
    api = {
      games: createClient(GamesService, transport),
      rules: createClient(RulesService, transport),
      bots: createClient(BotsService, transport),
      analysis: createClient(AnalysisService, transport),
      ladder: createClient(LadderService, transport),
    };
  }
  return api;
}

/** A fresh random id for one new request (a retry of the same request reuses it). */
export function newRequestId(): string {
  const c = globalThis.crypto;
  if (c && typeof c.randomUUID === "function") {
    return c.randomUUID();
  }
  const bytes = new Uint8Array(16);
  c.getRandomValues(bytes);
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The server's message for a failed call, verbatim (what the rules say, in a player's words). */
export function refusalText(error: unknown): string {
  if (error instanceof ConnectError) {
    if (error.rawMessage) {
      return error.rawMessage;
    }
    return `the server refused (${Code[error.code] ?? error.code})`;
  }
  if (error instanceof Error) {
    return error.message;
  }
  return String(error);
}

/** Whether a call failed because it was cancelled by the page itself. */
export function isCancelled(error: unknown): boolean {
  return error instanceof ConnectError && error.code === Code.Canceled;
}

export { Code, ConnectError };
