'use strict';
/**
 * A Node.js client for the tavli server, built on @grpc/grpc-js.
 *
 * The API is not generated code: @grpc/proto-loader reads the tavli.v1 .proto files from the
 * repository's proto/ folder when this module loads, so the client always speaks the API the
 * server was built from.
 *
 *   const { TavliClient } = require('./tavli');
 *   const tavli = TavliClient.connect('127.0.0.1:50051');
 *   const { game, seats: [seat0, seat1] } = await tavli.createGame({ variant: 'backgammon', matchLength: 1 });
 *   await seat0.roll();                        // the throw for who starts
 *   const legal = await seat1.legalActions();  // { actions: ['ACTION_PLAY'], plays: [...], etag }
 *   await seat1.play(legal.plays[0].notation);
 *   tavli.close();
 *
 * A bot or a GUI is best seated on a PlaySeat stream: the server sends the seat's view (the game
 * and what the seat may do) at once and after every change, and answers its actions on the stream:
 *
 *   const stream = await tavli.streamSeat(game.name, seat1Token);
 *   for await (const { game, legalActions } of stream) {
 *     if (legalActions.actions.includes('ACTION_ROLL')) await stream.roll();
 *   }
 *
 * An account (a bot's or a person's) acts with its API key, sent on every call as the metadata
 * `authorization: Bearer KEY`: it joins the ladder, follows its events (resumed after the last
 * event seen when the connection drops), challenges, accepts or declines, and reads leaderboards:
 *
 *   const tavli = TavliClient.connect('127.0.0.1:50051', { apiKey: KEY });
 *   await tavli.joinLadder();
 *   for await (const { gamesInProgress, event } of tavli.events()) {
 *     for (const game of [...gamesInProgress, ...(event?.gameStarted ? [event.gameStarted] : [])]) {
 *       // hold game.game's seat with game.seatToken on a PlaySeat stream (bot.js --ladder does)
 *     }
 *   }
 *
 * Messages are plain objects with camelCase field names (seat_token is seatToken), enums are
 * their names as strings ('PHASE_ROLLING', 'SEAT_0'), 64-bit integers are numbers, and unset
 * fields hold their defaults. Every call returns a promise; a failed call rejects with a
 * TavliError carrying the gRPC status code and the google.rpc.ErrorInfo reason.
 */

const crypto = require('node:crypto');
const path = require('node:path');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');

/** The folder that holds tavli/v1/*.proto (the repository's proto/). */
const PROTO_ROOT = path.resolve(__dirname, '..', '..', 'proto');
const PROTO_FILES = [
  'tavli/v1/games_service.proto',
  'tavli/v1/rules_service.proto',
  'tavli/v1/analysis_service.proto',
  'tavli/v1/ladder_service.proto',
];

/**
 * How proto-loader turns messages into JavaScript objects. includeDirs needs only proto/: the one
 * import from outside it, google/protobuf/timestamp.proto, is a well-known type that protobufjs
 * (which proto-loader loads with) has built in, and it resolves every "google/protobuf/*.proto"
 * import it knows (any, duration, empty, field_mask, struct, timestamp, wrappers) to its own copy
 * before it looks in includeDirs. proto-loader itself ships no .proto files.
 */
const LOADER_OPTIONS = {
  keepCase: false,
  enums: String,
  longs: Number,
  defaults: true,
  oneofs: true,
  includeDirs: [PROTO_ROOT],
};

/** Loads the tavli.v1 package from the .proto files: { GamesService, RulesService, ... }. */
function loadApi(protoRoot = PROTO_ROOT) {
  const definition = protoLoader.loadSync(PROTO_FILES, { ...LOADER_OPTIONS, includeDirs: [protoRoot] });
  return grpc.loadPackageDefinition(definition).tavli.v1;
}

const VARIANTS = {
  backgammon: 'VARIANT_BACKGAMMON',
  'long-nardi': 'VARIANT_LONG_NARDI',
  plakoto: 'VARIANT_PLAKOTO',
  fevga: 'VARIANT_FEVGA',
  tavli: 'VARIANT_TAVLI', // the Greek tavli match: a rule set's variant only, never a rule query's
};
const RESULTS = {
  single: 'GAME_RESULT_SINGLE',
  gammon: 'GAME_RESULT_GAMMON',
  backgammon: 'GAME_RESULT_BACKGAMMON',
  mars: 'GAME_RESULT_MARS',
};
const DECLINE_REASONS = {
  generic: 'DECLINE_REASON_GENERIC',
  later: 'DECLINE_REASON_LATER',
  'too-fast': 'DECLINE_REASON_TOO_FAST',
  'too-slow': 'DECLINE_REASON_TOO_SLOW',
  variant: 'DECLINE_REASON_VARIANT',
  rated: 'DECLINE_REASON_RATED',
  casual: 'DECLINE_REASON_CASUAL',
  'match-length': 'DECLINE_REASON_MATCH_LENGTH',
  'no-bot': 'DECLINE_REASON_NO_BOT',
  'only-bot': 'DECLINE_REASON_ONLY_BOT',
};
const STATUS_NAMES = Object.fromEntries(Object.entries(grpc.status).map(([name, code]) => [code, name]));
const ERROR_INFO_TYPE = 'type.googleapis.com/google.rpc.ErrorInfo';

/** An error status from the server. */
class TavliError extends Error {
  /**
   * @param {number} code the gRPC status code (grpc.status.FAILED_PRECONDITION is 9)
   * @param {string} reason the ErrorInfo reason, e.g. 'ILLEGAL_PLAY' ('' when the server sent none)
   * @param {string} message the reason in a player's words
   * @param {object} [extra] domain, metadata (ErrorInfo's), cause (the grpc-js error)
   */
  constructor(code, reason, message, { domain = '', metadata = {}, cause } = {}) {
    super(message, cause ? { cause } : undefined);
    this.name = 'TavliError';
    this.code = code;
    this.codeName = STATUS_NAMES[code] || String(code);
    this.reason = reason;
    this.domain = domain;
    this.metadata = metadata;
  }

  /** Wraps a grpc-js ServiceError, reading the ErrorInfo from the grpc-status-details-bin trailer. */
  static fromServiceError(error) {
    let info = { reason: '', domain: '', metadata: {} };
    const trailer = error.metadata ? error.metadata.get('grpc-status-details-bin') : [];
    if (trailer.length > 0) {
      try {
        info = errorInfoOf(decodeStatus(Buffer.from(trailer[0]))) || info;
      } catch {
        // A trailer we cannot read leaves the reason empty; the status code still stands.
      }
    }
    const message = error.details !== undefined ? error.details : error.message;
    return new TavliError(error.code, info.reason, message, { ...info, cause: error });
  }

  toString() {
    return `${this.name}: ${this.codeName}${this.reason ? ` ${this.reason}` : ''}: ${this.message}`;
  }
}

// --- google.rpc.Status and ErrorInfo, decoded by hand (the wire format is small and stable) ------

function* fields(buffer) {
  let at = 0;
  const varint = () => {
    let value = 0n;
    let shift = 0n;
    for (;;) {
      if (at >= buffer.length) throw new Error('truncated varint');
      const byte = buffer[at++];
      value |= BigInt(byte & 0x7f) << shift;
      if (!(byte & 0x80)) return value;
      shift += 7n;
    }
  };
  while (at < buffer.length) {
    const key = Number(varint());
    const number = key >>> 3;
    const wire = key & 7;
    if (wire === 0) {
      yield [number, varint()];
    } else if (wire === 2) {
      const length = Number(varint());
      if (at + length > buffer.length) throw new Error('truncated field');
      yield [number, buffer.subarray(at, at + length)];
      at += length;
    } else if (wire === 1 || wire === 5) {
      at += wire === 1 ? 8 : 4;
    } else {
      throw new Error(`unsupported wire type ${wire}`);
    }
  }
}

/** google.rpc.Status: { code, message, details: [{ typeUrl, value }] }. */
function decodeStatus(buffer) {
  const status = { code: 0, message: '', details: [] };
  for (const [number, value] of fields(buffer)) {
    if (number === 1) status.code = Number(value);
    else if (number === 2) status.message = value.toString('utf8');
    else if (number === 3) {
      const any = { typeUrl: '', value: Buffer.alloc(0) };
      for (const [n, v] of fields(value)) {
        if (n === 1) any.typeUrl = v.toString('utf8');
        else if (n === 2) any.value = v;
      }
      status.details.push(any);
    }
  }
  return status;
}

/** The first google.rpc.ErrorInfo among a Status's details: { reason, domain, metadata }, or null. */
function errorInfoOf(status) {
  const any = status.details.find((detail) => detail.typeUrl === ERROR_INFO_TYPE);
  if (!any) return null;
  const info = { reason: '', domain: '', metadata: {} };
  for (const [number, value] of fields(any.value)) {
    if (number === 1) info.reason = value.toString('utf8');
    else if (number === 2) info.domain = value.toString('utf8');
    else if (number === 3) {
      let key = '';
      let entry = '';
      for (const [n, v] of fields(value)) {
        if (n === 1) key = v.toString('utf8');
        else if (n === 2) entry = v.toString('utf8');
      }
      info.metadata[key] = entry;
    }
  }
  return info;
}

// --- the client ---------------------------------------------------------------------------------

/**
 * A grpc-js interceptor that puts an account's API key on every call's metadata
 * (`authorization: Bearer KEY`), as the server wants it of every call that acts for the account.
 */
function apiKeyInterceptor(apiKey) {
  return (options, nextCall) =>
    new grpc.InterceptingCall(nextCall(options), {
      start(metadata, listener, next) {
        metadata.set('authorization', `Bearer ${apiKey}`);
        next(metadata, listener);
      },
    });
}

// The pauses before each new sending of a request that carries a requestId (see TavliClient.call).
const RETRY_PAUSES_MS = [100, 200, 500, 1000, 2000, 3000, 3000];
// What grpc's transport says of a stream reset under a call (INTERNAL, never the server's own
// answer: the server says what went wrong in words and an ErrorInfo).
const STREAM_RESET = ['RST_STREAM', 'Stream removed'];

/**
 * Whether `error` says the connection was lost (the server out of reach, restarting, or its
 * transport reset the stream under the call) rather than what the server answered.
 */
function connectionLost(error) {
  if (error.code === grpc.status.UNAVAILABLE) return true;
  return (
    error.code === grpc.status.INTERNAL && !error.reason && STREAM_RESET.some((words) => error.message.includes(words))
  );
}

/** Whether a call that carries a requestId should be sent again after failing with `error`. */
function worthSendingAgain(error) {
  return connectionLost(error) || error.code === grpc.status.DEADLINE_EXCEEDED;
}

/** A connection to a tavli server: the rules service, games through their seats, and the ladder. */
class TavliClient {
  /**
   * @param {string} address host:port
   * @param {object} [options] credentials (grpc.credentials.createInsecure() by default), timeoutMs
   *   (each call's deadline, 30 s by default), api (a loadApi() result, to share one between
   *   clients), apiKey (an account's key: every call then acts for that account)
   */
  constructor(address, { credentials = grpc.credentials.createInsecure(), timeoutMs = 30000, api, apiKey } = {}) {
    this.api = api || loadApi();
    this.timeoutMs = timeoutMs;
    const interceptors = apiKey ? [apiKeyInterceptor(apiKey)] : [];
    this.games = new this.api.GamesService(address, credentials, { interceptors });
    const shared = { channelOverride: this.games.getChannel(), interceptors };
    this.rules = new this.api.RulesService(address, credentials, shared);
    this.analysis = new this.api.AnalysisService(address, credentials, shared);
    this.ladder = new this.api.LadderService(address, credentials, shared);
  }

  /** Connects without TLS (pass credentials to the constructor for TLS). */
  static connect(address, options = {}) {
    return new TavliClient(address, options);
  }

  /** Resolves once the channel is connected, or rejects after timeoutMs. */
  waitForReady(timeoutMs = this.timeoutMs) {
    return new Promise((resolve, reject) => {
      this.games.waitForReady(Date.now() + timeoutMs, (error) => (error ? reject(error) : resolve()));
    });
  }

  close() {
    this.games.close();
  }

  /**
   * Calls a unary method; resolves with the response or rejects with a TavliError. A request that
   * carries a requestId is safe to send again (the server answers a repeat with its first answer):
   * it is sent again while the server cannot be reached or the deadline passes, or when a proxy
   * between (nginx, a replica behind it dying mid-call) reset the call's stream, a few times over
   * about ten seconds.
   */
  async call(service, method, request) {
    const stub = { games: this.games, rules: this.rules, analysis: this.analysis, ladder: this.ladder }[service];
    const once = () =>
      new Promise((resolve, reject) => {
        stub[method](request, { deadline: Date.now() + this.timeoutMs }, (error, response) => {
          if (error) reject(TavliError.fromServiceError(error));
          else resolve(response);
        });
      });
    const pauses = request.requestId ? RETRY_PAUSES_MS : [];
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await once();
      } catch (error) {
        if (attempt >= pauses.length || !worthSendingAgain(error)) throw error;
        await new Promise((resolve) => setTimeout(resolve, pauses[attempt]));
      }
    }
  }

  /**
   * Creates a game or match; resolves with { game, seats: [Seat, Seat] }.
   * @param {object} options variant ('backgammon', 'long-nardi', 'plakoto', 'fevga' or 'tavli', the
   *   Greek tavli match, which needs a matchLength), matchLength (0: money play),
   *   diceSeed (reproducible dice), ruleSet (more RuleSet fields, camelCase, e.g. { cube: 'CUBE_MODE_NO_CUBE' })
   */
  async createGame({ variant = 'backgammon', matchLength = 0, diceSeed = '', ruleSet = {} } = {}) {
    const response = await this.call('games', 'createGame', {
      ruleSet: { variant: variantEnum(variant), matchLength, ...ruleSet },
      diceMode: diceSeed ? 'DICE_MODE_SEEDED' : 'DICE_MODE_UNSPECIFIED',
      diceSeed,
      requestId: crypto.randomUUID(),
    });
    const { game } = response;
    return {
      game,
      seats: [new Seat(this, game, 0, response.seat0Token), new Seat(this, game, 1, response.seat1Token)],
    };
  }

  /** The game named "games/{game}" now. */
  async getGame(name) {
    return (await this.call('games', 'getGame', { name })).game;
  }

  /** What seat (0 or 1) may do now in a game: { actions, plays, etag }. */
  listLegalActions(name, seat) {
    return this.call('games', 'listLegalActions', { name, seat: seatEnum(seat) });
  }

  /** Every event of a game, all pages. */
  async listGameEvents(name) {
    const events = [];
    let pageToken = '';
    do {
      const page = await this.call('games', 'listGameEvents', { name, pageToken });
      events.push(...page.events);
      pageToken = page.nextPageToken;
    } while (pageToken);
    return events;
  }

  /** The legal plays of dice [a, b] in a position (a Position ID, or a Position object). */
  async listLegalPlays(variant, position, dice) {
    const request = { variant: VARIANTS[variant] || variant, position: positionOf(position), dice };
    return (await this.call('rules', 'listLegalPlays', request)).plays;
  }

  /**
   * Holds the seat that token holds at game name on a PlaySeat stream; resolves with the
   * SeatStream once the server has sent its first view, or rejects with the TavliError of the
   * refused join (GAME_NOT_FOUND, WRONG_SEAT_TOKEN, SEAT_ALREADY_STREAMING, ...).
   * @param {object} [options] resume: a stream of this seat was lost (by this program or an
   *   earlier run of it): join again for a few seconds while the server has not let go of it
   */
  streamSeat(name, token, { resume = false } = {}) {
    return SeatStream.open(this, name, token, { resume });
  }

  /**
   * GNU Backgammon's ranking of a roll's legal plays (AnalysisService.ListRankedPlays), best
   * first: [{ play, equity, loss }]. position: a Position ID or a Position object, from the side
   * on roll; context: the match or money game ({ matchLength, playerScore, opponentScore,
   * crawford, cubeValue, cubeOwner, jacoby, beavers, plies }; money play, a centred cube and 0
   * plies where left out). Rejects with a TavliError (NO_EVALUATOR, INVALID_ARGUMENT, ...).
   */
  async rankedPlays(variant, position, dice, context = {}) {
    const request = { variant: VARIANTS[variant] || variant, position: positionOf(position), dice, context };
    return (await this.call('analysis', 'listRankedPlays', request)).plays;
  }

  /**
   * GNU Backgammon's cube decision for the side on roll (AnalysisService.GetCubeDecision):
   * { noDoubleEquity, doubleTakeEquity, doublePassEquity, action, response, cubelessEquity }.
   * position and context as for rankedPlays.
   */
  cubeDecision(variant, position, context = {}) {
    const request = { variant: VARIANTS[variant] || variant, position: positionOf(position), context };
    return this.call('analysis', 'getCubeDecision', request);
  }

  /**
   * GNU Backgammon's review of a match (AnalysisService.AnalyzeMatch): of a match record (its
   * .mat or SGF text, or a Buffer of the file) or of a stored game's name; resolves with
   * { decisions, players } once the server has sent the statistics, or rejects with a TavliError
   * (NO_EVALUATOR, INVALID_MATCH_RECORD, CPU_BUDGET_SPENT, EVALUATOR_UNAVAILABLE, ...). No deadline
   * applies: a long match at 2 plies takes minutes.
   * @param {object} options record or game, plies (0, 1 or 2), onProgress ({ analyzed, total })
   */
  analyzeMatch({ record, game = '', plies = 0, onProgress = () => {} } = {}) {
    if ((record === undefined) === !game) throw new TypeError('analyse either a match record or a stored game');
    const request = { plies };
    if (record === undefined) request.game = game;
    else request.record = Buffer.isBuffer(record) ? { data: record } : { text: record };
    return new Promise((resolve, reject) => {
      const decisions = [];
      const stream = this.analysis.analyzeMatch(request);
      stream.on('data', (message) => {
        if (message.item === 'progress') onProgress(message.progress);
        else if (message.item === 'decision') decisions.push(message.decision);
        else if (message.item === 'statistics') resolve({ decisions, players: message.statistics.players });
      });
      stream.on('error', (error) => reject(TavliError.fromServiceError(error)));
      stream.on('end', () => reject(new TavliError(grpc.status.UNAVAILABLE, '', 'the analysis ended early')));
    });
  }

  // --- accounts, challenges and the ladder (a client connected with an apiKey) ----------------

  /** The account this client's key acts for: { name, handle, displayName, kind, ladderMember }. */
  async account() {
    return (await this.call('ladder', 'getAccount', {})).account;
  }

  /** Joins the ladder (a bot's account), or leaves it with member false; resolves with the account. */
  async joinLadder(member = true) {
    return (await this.call('ladder', 'setLadderMember', { member })).account;
  }

  /**
   * The account's event stream (see EventStream), from the event after `after` (0: the first
   * message lists the games in progress, then every event not yet seen).
   */
  events({ after = 0 } = {}) {
    return new EventStream(this, after);
  }

  /**
   * Challenges the account `opponent` (a handle; '' for an open seek anyone may accept) to a match;
   * resolves with the Challenge.
   * @param {object} [options] variant (as createGame's), matchLength (1), ruleSet (more RuleSet
   *   fields), rated (true), timeToLiveSeconds (how long it stays open; the server's 5 minutes by default)
   */
  async challenge(
    opponent,
    { variant = 'backgammon', matchLength = 1, ruleSet = {}, rated = true, timeToLiveSeconds } = {},
  ) {
    const request = { opponent, ruleSet: { variant: variantEnum(variant), matchLength, ...ruleSet }, rated };
    if (timeToLiveSeconds !== undefined) request.timeToLive = { seconds: timeToLiveSeconds, nanos: 0 };
    return (await this.call('ladder', 'createChallenge', request)).challenge;
  }

  /** The account's challenges, those made to it, and every open seek (of one variant, if given). */
  async listChallenges(variant) {
    const request = { variant: variant === undefined ? 'VARIANT_UNSPECIFIED' : variantEnum(variant) };
    return (await this.call('ladder', 'listChallenges', request)).challenges;
  }

  /** Accepts a challenge (or a seek): resolves with the game it starts, { game, seatToken, ... }. */
  async acceptChallenge(name) {
    return (await this.call('ladder', 'acceptChallenge', { name })).game;
  }

  /** Declines a challenge with a reason: one of DECLINE_REASONS' names ('variant', 'too-fast', ...). */
  async declineChallenge(name, reason = 'generic') {
    if (!(reason in DECLINE_REASONS)) {
      throw new TypeError(`unknown reason ${reason}: ${Object.keys(DECLINE_REASONS).join(', ')}`);
    }
    return (await this.call('ladder', 'declineChallenge', { name, reason: DECLINE_REASONS[reason] })).challenge;
  }

  /** Withdraws a challenge of this account's. */
  async cancelChallenge(name) {
    return (await this.call('ladder', 'cancelChallenge', { name })).challenge;
  }

  /**
   * A variant's leaderboard, first page, highest first: [{ handle, displayName, rating, deviation,
   * games, rank }], of bots, or of people with { bots: false }. Needs no key.
   */
  async leaderboard(variant = 'backgammon', { bots = true } = {}) {
    const kind = bots ? 'ACCOUNT_KIND_BOT' : 'ACCOUNT_KIND_HUMAN';
    const request = { variant: variantEnum(variant), kind, pageSize: 200 };
    return (await this.call('ladder', 'listLeaderboard', request)).entries;
  }

  /**
   * An account's ratings in a variant after each of its rated matches:
   * [{ game, rating, deviation, opponent, won, time }].
   */
  async ratingHistory(handle, variant = 'backgammon') {
    return (await this.call('ladder', 'listRatingHistory', { handle, variant: variantEnum(variant) })).changes;
  }
}

// How long to wait before following an account's events again after the stream dropped.
const EVENTS_PAUSE_MS = 1000;
/** Whether the event stream is followed again after ending with `status` (OK, or the connection
 * lost); any other end ends it (UNAUTHENTICATED: a revoked key, ...). */
function followAgainAfter(status) {
  return status.code === grpc.status.OK || worthSendingAgain(TavliError.fromServiceError(status));
}

/**
 * An account's event stream (LadderService.StreamEvents), followed again after the last event seen
 * whenever the connection drops or the server restarts, so that no event is lost or given twice.
 *
 * Iterating (for await) gives the messages as they come: StreamEventsResponse objects
 * { gamesInProgress, event }. Each stream's first message lists the account's games in progress
 * (each with its seat's token) and has no event; each later one holds one event
 * { eventId, time, kind, challengeReceived | challengeClosed | gameStarted | gameEnded |
 * rematchOffered | notice }. A refusal the server would repeat (UNAUTHENTICATED for a revoked key,
 * RESOURCE_EXHAUSTED for too many streams) ends the iteration with its TavliError; close(), or
 * leaving the iteration, stops following.
 */
class EventStream {
  constructor(client, after) {
    this.client = client;
    this.after = after; // the last event id received
    this.queue = []; // messages received and not yet given
    this.ended = null; // { error } once over for good
    this.call = null;
    this.timer = null;
    this.wake = () => {};
    this.follow();
  }

  [Symbol.asyncIterator]() {
    return this.messages();
  }

  /** The messages as they come; leaving the iteration (a break) stops following, as close() does. */
  async *messages() {
    try {
      for (;;) {
        if (this.queue.length > 0) {
          yield this.queue.shift();
        } else if (this.ended) {
          if (this.ended.error) throw this.ended.error;
          return;
        } else {
          await new Promise((resolve) => (this.wake = resolve));
        }
      }
    } finally {
      this.finish(null);
    }
  }

  /** Stops following: iterating ends once the messages already received are given. */
  close() {
    this.finish(null);
  }

  follow() {
    this.timer = null;
    const call = this.client.ladder.streamEvents({ afterEventId: this.after });
    this.call = call;
    let status = null;
    let readable = true;
    // The status can come before the last messages are read: the stream is over once both are in.
    const over = () => {
      if (status === null || readable || this.call !== call) return;
      this.call = null;
      if (followAgainAfter(status)) this.timer = setTimeout(() => this.follow(), EVENTS_PAUSE_MS);
      else this.finish(TavliError.fromServiceError(status));
    };
    call.on('data', (message) => {
      if (this.call !== call) return;
      if (message.event) this.after = message.event.eventId;
      this.queue.push(message);
      this.wake();
    });
    call.on('error', () => {}); // the status (which comes with it) says what happened
    call.on('status', (received) => {
      status = received;
      over();
    });
    call.on('end', () => {
      readable = false;
      over();
    });
  }

  finish(error) {
    if (this.ended) return;
    this.ended = { error };
    clearTimeout(this.timer);
    const call = this.call;
    this.call = null;
    if (call) call.cancel();
    this.wake();
  }
}

/** One seat of one game: acts with that seat's token, on the last state it saw. */
class Seat {
  constructor(client, game, index, token) {
    this.client = client;
    this.name = game.name;
    this.index = index;
    this.token = token;
    this.lastSeen = game;
    this.etag = game.etag;
  }

  /** This seat as the API's Seat enum name. */
  get seat() {
    return seatEnum(this.index);
  }

  /** The game now (its etag becomes the one the next action is made on). */
  async game() {
    this.lastSeen = await this.client.getGame(this.name);
    this.etag = this.lastSeen.etag;
    return this.lastSeen;
  }

  /** What this seat may do now: { actions, plays, etag } (the etag is kept for the next action). */
  async legalActions() {
    const response = await this.client.listLegalActions(this.name, this.index);
    this.etag = response.etag;
    return response;
  }

  roll() {
    return this.act('rollDice');
  }

  /**
   * Plays the rolled dice: notation as in Play.notation ('' when the roll cannot be played), or
   * the play's steps, each { fromPoint, toPoint } (as in Play.steps) or [from, to].
   */
  play(play) {
    return this.act('playMove', playOf(play));
  }

  double() {
    return this.act('offerDouble');
  }

  take() {
    return this.act('takeDouble');
  }

  drop() {
    return this.act('dropDouble');
  }

  beaver() {
    return this.act('beaverDouble');
  }

  /** Offers to resign: 'single', 'gammon', 'backgammon' or 'mars' (capped by the server). */
  resign(level) {
    if (!(level in RESULTS)) throw new TypeError(`unknown resignation ${level}`);
    return this.act('offerResignation', { result: RESULTS[level] });
  }

  accept() {
    return this.act('acceptResignation');
  }

  reject() {
    return this.act('rejectResignation');
  }

  /** Makes an action on the state last seen, with a fresh request_id; resolves with the game after it. */
  async act(method, fields = {}) {
    const request = {
      name: this.name,
      seatToken: this.token,
      etag: this.etag,
      requestId: crypto.randomUUID(),
      ...fields,
    };
    const { game } = await this.client.call('games', method, request);
    this.lastSeen = game;
    this.etag = game.etag;
    return game;
  }
}

// How long to wait between joins of a seat stream while the server cannot be reached, or, when
// resuming, while it has not yet let go of the lost stream (about 10 s in all).
const JOIN_PAUSES_MS = [100, 200, 500, 1000, 2000, 3000, 3000];

/**
 * One seat of one game held on a PlaySeat stream.
 *
 * Iterating (for await) gives the seat's views as they come: PlaySeatResponse objects
 * { seat, game, legalActions, answer }, legalActions as ListLegalActions gives it (the legal plays
 * too when the seat has to play). When several came while the program was busy, only the newest
 * is given: a decision is made on the game now. The iteration ends after the view that shows
 * the match over (in money play it never does: stop when you have played enough, and close()).
 *
 * The actions are a Seat's (roll, play, double, take, drop, beaver, resign, accept, reject): each
 * is sent with the etag of the last view the program saw and a fresh request_id, and resolves
 * with the game after it, or rejects with a TavliError carrying the refusal (STALE_ETAG,
 * NOT_YOUR_TURN, ...): the stream goes on, and the refusal's view, the game now, is the next one
 * iterating gives.
 *
 * A connection lost (UNAVAILABLE) is resumed by itself, and resume() does it by hand: a new
 * stream joins the seat with the same token, the server sends the game now, and every action
 * not yet answered is sent again with its request_id, so that it is made once.
 */
class SeatStream {
  constructor(client, name, token) {
    this.client = client;
    this.name = name;
    this.token = token;
    this.latest = null; // the last view the program saw: given by iterating, or an action's answer
    this.etag = ''; // the etag of that view's game: the next action is made on that state only
    this.newest = null; // the newest message received
    this.unseen = false; // whether iterating has yet to give newest
    this.pending = []; // the actions sent and not yet answered, in order: { action, settle }
    this.call = null;
    this.joined = false; // whether this.call has joined and takes actions
    this.ended = null; // { error } once the stream is over for good (error null: it ended with OK)
    this.closed = false;
    this.joins = 0; // how many streams have joined the seat: 1, and one more for each resume
    this.resuming = null; // the resume under way
    this.wake = () => {};
  }

  /** A stream joined to the seat (see TavliClient.streamSeat). */
  static async open(client, name, token, { resume = false } = {}) {
    const stream = new SeatStream(client, name, token);
    await stream.join({ resume });
    return stream;
  }

  /** This seat as the API's Seat enum name ('SEAT_0' or 'SEAT_1'). */
  get seat() {
    return this.newest.seat;
  }

  /** This seat as 0 or 1. */
  get index() {
    return this.seat === 'SEAT_1' ? 1 : 0;
  }

  /** The game of the last view the program saw. */
  get lastSeen() {
    return this.latest.game;
  }

  /** Whether the newest view shows the match over. */
  get over() {
    return this.newest.game.phase === 'PHASE_MATCH_OVER';
  }

  [Symbol.asyncIterator]() {
    return this.views();
  }

  /**
   * The seat's views as they come (see the class).
   * @param {object} [options] timeoutMs: how long to wait at most for each (unbounded by default);
   *   past it the iteration throws a TavliError DEADLINE_EXCEEDED
   */
  async *views({ timeoutMs } = {}) {
    for (;;) {
      if (this.unseen) {
        this.unseen = false;
        this.see(this.newest);
        yield this.latest;
      } else if (this.ended) {
        if (this.ended.error) throw this.ended.error;
        return;
      } else if (!(await this.news(timeoutMs))) {
        throw new TavliError(grpc.status.DEADLINE_EXCEEDED, '', `no news of ${this.name} came within ${timeoutMs} ms`);
      }
    }
  }

  roll() {
    return this.act({ roll: {} });
  }

  /** Plays the rolled dice: notation, or the play's steps, as Seat.play takes them. */
  play(play) {
    return this.act({ play: playOf(play) });
  }

  double() {
    return this.act({ double: {} });
  }

  take() {
    return this.act({ take: {} });
  }

  drop() {
    return this.act({ drop: {} });
  }

  beaver() {
    return this.act({ beaver: {} });
  }

  /** Offers to resign: 'single', 'gammon', 'backgammon' or 'mars' (capped by the server). */
  resign(level) {
    if (!(level in RESULTS)) throw new TypeError(`unknown resignation ${level}`);
    return this.act({ resign: { result: RESULTS[level] } });
  }

  accept() {
    return this.act({ accept: {} });
  }

  reject() {
    return this.act({ reject: {} });
  }

  /** Makes an action on the state last seen, with a fresh request_id; resolves with the game after it. */
  async act(action) {
    const response = await this.send({ etag: this.etag, requestId: crypto.randomUUID(), ...action });
    const { refusal } = response.answer;
    if (refusal) throw refusalError(refusal);
    return response.game;
  }

  /**
   * Sends one SeatAction ({ etag, requestId, roll: {} }, ...) and resolves with the message that
   * answers it, refused or not (answer.refusal says). Give it a requestId: if the connection is
   * lost before the answer comes, it is sent again on the resumed stream.
   */
  send(action) {
    if (this.ended) return Promise.reject(this.endError());
    return new Promise((resolve, reject) => {
      // An answer late past the client's timeout: the stream is taken as lost and resumed once,
      // the action sent again; late again, the stream fails.
      const late = (resumed) =>
        setTimeout(() => {
          if (resumed) {
            this.finish(new TavliError(grpc.status.DEADLINE_EXCEEDED, '', 'the server did not answer in time'));
          } else {
            pending.timer = late(true);
            this.resume().catch(() => {}); // a join refused ends the stream with its error
          }
        }, this.client.timeoutMs);
      const pending = {
        action,
        timer: late(false),
        settle: (response, error) => {
          clearTimeout(pending.timer);
          if (error) return reject(error);
          this.see(response);
          return resolve(response);
        },
      };
      this.pending.push(pending);
      if (this.joined) this.call.write({ action });
    });
  }

  /**
   * Lets go of this stream and joins the seat again on a new one: the server sends the game now,
   * and the actions not yet answered are sent again with their request_ids. Rejects with the
   * TavliError of the refused join. While a resume is under way, resolves with it.
   */
  resume() {
    if (!this.resuming) this.resuming = this.joinAgain().finally(() => (this.resuming = null));
    return this.resuming;
  }

  /** Lets go of the seat: the stream ends (an action not yet answered fails), and another may join it. */
  close() {
    this.closed = true;
    this.hangUp();
    this.finish(new TavliError(grpc.status.CANCELLED, '', "the seat's stream was closed"));
  }

  // --- inside ------------------------------------------------------------------------------

  async joinAgain() {
    this.closed = false;
    this.ended = null;
    this.hangUp();
    try {
      await this.join({ resume: true });
    } catch (error) {
      this.finish(error);
      throw error;
    }
  }

  /** Opens a stream and waits for its first view, trying again as JOIN_PAUSES_MS says. */
  async join({ resume }) {
    for (const pause of [...JOIN_PAUSES_MS, null]) {
      try {
        await this.connect();
        return;
      } catch (error) {
        const again = connectionLost(error) || (resume && error.reason === 'SEAT_ALREADY_STREAMING');
        if (pause === null || !again || this.closed) throw error;
        await new Promise((resolve) => setTimeout(resolve, pause));
      }
    }
  }

  /** One PlaySeat call: resolves once the server has sent the view it starts with. */
  connect() {
    return new Promise((resolve, reject) => {
      const call = this.client.games.playSeat();
      this.call = call;
      let started = false;
      let status = null;
      let readable = true;
      const ended = () => {
        if (status === null || readable) return;
        const error = status.code === grpc.status.OK ? null : TavliError.fromServiceError(status);
        const current = this.call === call;
        if (current) {
          this.call = null;
          this.joined = false;
        }
        const unstarted = () => new TavliError(grpc.status.UNAVAILABLE, '', 'the stream ended before its first view');
        if (!started) reject(error || unstarted());
        else if (current) this.lost(error);
      };
      call.on('data', (response) => {
        if (this.call !== call) return;
        if (!started) {
          started = true;
          this.joined = true;
          this.joins++;
          for (const { action } of this.pending) call.write({ action });
          resolve();
        }
        this.receive(response);
      });
      call.on('error', () => {}); // the status (which comes with it) says what happened
      // The status can come before the last messages are read: the stream is over once both are in.
      call.on('status', (received) => {
        status = received;
        ended();
      });
      call.on('end', () => {
        readable = false;
        ended();
      });
      call.write({ join: { name: this.name, seatToken: this.token } });
    });
  }

  receive(response) {
    withFinishedGamesSent(response.game, this.newest?.game);
    this.newest = response;
    this.unseen = true;
    if (response.answer) {
      const answered = this.pending.shift();
      if (answered) answered.settle(response);
    }
    this.wake();
  }

  /** The current call ended after its first view: with OK (error null), or with an error. */
  lost(error) {
    if (error && connectionLost(error) && !this.closed) {
      this.resume().catch(() => {}); // a join refused ends the stream with its error
    } else {
      this.finish(error);
    }
  }

  /** The stream is over for good: the actions not yet answered fail, iterating ends. */
  finish(error) {
    if (this.ended) return;
    this.ended = { error };
    const failure = this.endError();
    for (const { settle } of this.pending.splice(0)) settle(null, failure);
    this.wake();
  }

  endError() {
    if (this.ended.error) return this.ended.error;
    const over = 'the match is over: the server ended the stream';
    return new TavliError(grpc.status.FAILED_PRECONDITION, 'MATCH_OVER', over);
  }

  hangUp() {
    const call = this.call;
    this.call = null;
    this.joined = false;
    if (call) call.cancel();
  }

  see(response) {
    this.latest = response;
    this.etag = response.game.etag;
  }

  /** Resolves with true when a message comes or the stream ends, false after timeoutMs. */
  news(timeoutMs) {
    return new Promise((resolve) => {
      const timer = timeoutMs === undefined ? null : setTimeout(() => resolve(false), timeoutMs);
      this.wake = () => {
        clearTimeout(timer);
        this.wake = () => {};
        resolve(true);
      };
    });
  }
}

/**
 * Makes a stream's game whole and returns it: a message after a stream's first carries only the
 * finished games the stream has not sent yet (game.omittedFinishedGameCount says how many of the
 * first it leaves out), taken here from before, the stream's previous game, already whole.
 * Changes game.
 */
function withFinishedGamesSent(game, before) {
  const omitted = game.omittedFinishedGameCount;
  if (omitted) {
    game.finishedGames = [...before.finishedGames.slice(0, omitted), ...game.finishedGames];
    game.omittedFinishedGameCount = 0;
  }
  return game;
}

/** The TavliError of an action refused on a stream (its SeatActionRefusal is a google.rpc.Status). */
function refusalError({ code, message, details }) {
  // protobufjs's own google.protobuf.Any wrapper names its field type_url whatever keepCase says.
  const anys = details.map((any) => ({ typeUrl: any.typeUrl ?? any.type_url, value: Buffer.from(any.value) }));
  const info = errorInfoOf({ code, message, details: anys }) || { reason: '', domain: '', metadata: {} };
  return new TavliError(code, info.reason, message, info);
}

/** A variant's Variant enum name, from its name ('backgammon', 'long-nardi', ...). */
function variantEnum(variant) {
  if (!(variant in VARIANTS)) {
    throw new TypeError(`unknown variant ${variant}: ${Object.keys(VARIANTS).join(', ')}`);
  }
  return VARIANTS[variant];
}

function seatEnum(index) {
  if (index === 0 || index === 'SEAT_0') return 'SEAT_0';
  if (index === 1 || index === 'SEAT_1') return 'SEAT_1';
  throw new TypeError(`a seat is 0 or 1, not ${index}`);
}

/** A play as PlayMoveRequest and SeatAction.PlayMove take it: { notation } or { steps: { steps } }. */
function playOf(play) {
  if (typeof play === 'string') return { notation: play };
  const steps = play.map((step) =>
    Array.isArray(step) ? { fromPoint: step[0], toPoint: step[1] } : { fromPoint: step.fromPoint, toPoint: step.toPoint },
  );
  return { steps: { steps } };
}

function positionOf(position) {
  return typeof position === 'string' ? { positionId: position } : position;
}

module.exports = {
  PROTO_ROOT,
  LOADER_OPTIONS,
  loadApi,
  TavliClient,
  Seat,
  SeatStream,
  EventStream,
  TavliError,
  connectionLost,
  withFinishedGamesSent,
  DECLINE_REASONS,
  decodeStatus,
  errorInfoOf,
  status: grpc.status,
};
