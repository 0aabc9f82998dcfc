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
const PROTO_FILES = ['tavli/v1/games_service.proto', 'tavli/v1/rules_service.proto'];

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

const VARIANTS = { backgammon: 'VARIANT_BACKGAMMON', 'long-nardi': 'VARIANT_LONG_NARDI' };
const RESULTS = {
  single: 'GAME_RESULT_SINGLE',
  gammon: 'GAME_RESULT_GAMMON',
  backgammon: 'GAME_RESULT_BACKGAMMON',
  mars: 'GAME_RESULT_MARS',
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

/** A connection to a tavli server: the rules service, and games through their seats. */
class TavliClient {
  /**
   * @param {string} address host:port
   * @param {object} [options] credentials (grpc.credentials.createInsecure() by default), timeoutMs
   *   (each call's deadline, 30 s by default), api (a loadApi() result, to share one between clients)
   */
  constructor(address, { credentials = grpc.credentials.createInsecure(), timeoutMs = 30000, api } = {}) {
    this.api = api || loadApi();
    this.timeoutMs = timeoutMs;
    this.games = new this.api.GamesService(address, credentials);
    this.rules = new this.api.RulesService(address, credentials, { channelOverride: this.games.getChannel() });
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

  /** Calls a unary method; resolves with the response or rejects with a TavliError. */
  call(service, method, request) {
    const stub = service === 'rules' ? this.rules : this.games;
    return new Promise((resolve, reject) => {
      stub[method](request, { deadline: Date.now() + this.timeoutMs }, (error, response) => {
        if (error) reject(TavliError.fromServiceError(error));
        else resolve(response);
      });
    });
  }

  /**
   * Creates a game or match; resolves with { game, seats: [Seat, Seat] }.
   * @param {object} options variant ('backgammon' or 'long-nardi'), matchLength (0: money play),
   *   diceSeed (reproducible dice), ruleSet (more RuleSet fields, camelCase, e.g. { cube: 'CUBE_MODE_NO_CUBE' })
   */
  async createGame({ variant = 'backgammon', matchLength = 0, diceSeed = '', ruleSet = {} } = {}) {
    if (!(variant in VARIANTS)) throw new TypeError(`unknown variant ${variant}: backgammon or long-nardi`);
    const response = await this.call('games', 'createGame', {
      ruleSet: { variant: VARIANTS[variant], matchLength, ...ruleSet },
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
    if (typeof play === 'string') return this.act('playMove', { notation: play });
    const steps = play.map((step) =>
      Array.isArray(step) ? { fromPoint: step[0], toPoint: step[1] } : { fromPoint: step.fromPoint, toPoint: step.toPoint },
    );
    return this.act('playMove', { steps: { steps } });
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

function seatEnum(index) {
  if (index === 0 || index === 'SEAT_0') return 'SEAT_0';
  if (index === 1 || index === 'SEAT_1') return 'SEAT_1';
  throw new TypeError(`a seat is 0 or 1, not ${index}`);
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
  TavliError,
  decodeStatus,
  errorInfoOf,
  status: grpc.status,
};
