#!/usr/bin/env node
'use strict';
/**
 * A simple bot: plays a random legal play, takes every double, rejects every resignation, and
 * (where the cube may be turned) doubles now and then so that the cube gets used.
 *
 * It decides from a ListLegalActions answer alone ({ actions, plays, etag }); the driver makes
 * the call for the chosen action on the seat. playSeat() seats it on a PlaySeat stream, the
 * recommended way; playSeatUnary() over unary calls, woken by WatchGame.
 *
 * Run, it plays one seat of a game to the end of the match (in money play, of --games games):
 *
 *   TAVLI_SEAT_TOKEN=… node bot.js HOST:PORT games/… [--seed TEXT] [--games N] [--wait SECONDS]
 *       [--drop-after N] [--unary --seat 0|1]
 *
 * or, with --ladder, it plays for an account on the server's ladder (LadderBot), every game the
 * ladder pairs it in or a challenge starts, until --games games of it have ended (or for ever):
 *
 *   node bot.js --ladder --key KEY [--server HOST:PORT] [--games N] [--seed TEXT]
 *   (the key may be given in TAVLI_API_KEY instead, out of the process list)
 *
 * The seat's token comes from the environment, not the command line, which other users of the
 * machine can read. --drop-after N hangs up the stream after N actions without a word and
 * resumes on a new one (a test of resuming). --unary plays over unary calls instead of the
 * stream; it needs --seat, as a token does not say which seat it holds there. Prints the game's
 * name and end and exits 0 when the match (or the games) is over, 1 on any failure, 2 on bad usage.
 */

const { Seat, TavliClient, TavliError, connectionLost, status, withFinishedGamesSent } = require('./tavli');

// How long to wait before trying again to join the ladder while the server is out of reach.
const REACH_AGAIN_MS = 1000;

class RandomBot {
  /**
   * @param {object} [options] random (a function returning [0, 1), Math.random by default),
   *   doubleChance (how often it doubles when it may, 0.05 by default)
   */
  constructor({ random = Math.random, doubleChance = 0.05 } = {}) {
    this.random = random;
    this.doubleChance = doubleChance;
  }

  /** The action to take: { action: 'ACTION_…', steps? } (the play's steps for ACTION_PLAY). */
  choose({ actions, plays }) {
    const can = new Set(actions);
    if (can.has('ACTION_PLAY')) {
      if (plays.length === 0) throw new Error('ACTION_PLAY offered without legal plays');
      const play = plays[Math.floor(this.random() * plays.length)];
      return { action: 'ACTION_PLAY', steps: play.steps };
    }
    if (can.has('ACTION_TAKE')) return { action: 'ACTION_TAKE' };
    if (can.has('ACTION_REJECT')) return { action: 'ACTION_REJECT' };
    if (can.has('ACTION_DOUBLE') && this.random() < this.doubleChance) return { action: 'ACTION_DOUBLE' };
    if (can.has('ACTION_ROLL')) return { action: 'ACTION_ROLL' };
    throw new Error(`the bot has nothing to do among ${actions.join(', ')}`);
  }
}

/** A small seeded generator (mulberry32 over a string hash), for a reproducible bot. */
function seededRandom(text) {
  let state = 0x9e3779b9;
  for (const char of text) state = Math.imul(state ^ char.codePointAt(0), 0x85ebca6b) >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Makes a bot's choice through a Seat (or a SeatStream); resolves with the game after it. */
function perform(seat, choice) {
  switch (choice.action) {
    case 'ACTION_ROLL':
      return seat.roll();
    case 'ACTION_PLAY':
      return seat.play(choice.steps);
    case 'ACTION_DOUBLE':
      return seat.double();
    case 'ACTION_TAKE':
      return seat.take();
    case 'ACTION_DROP':
      return seat.drop();
    case 'ACTION_BEAVER':
      return seat.beaver();
    case 'ACTION_ACCEPT':
      return seat.accept();
    case 'ACTION_REJECT':
      return seat.reject();
    case 'ACTION_RESIGN':
      return seat.resign(choice.level);
    default:
      throw new Error(`unknown action ${choice.action}`);
  }
}

/** Whether a match is over, or money play has finished `games` games. */
function isFinished(game, games = 1) {
  if (game.phase === 'PHASE_MATCH_OVER') return true;
  return game.ruleSet.matchLength === 0 && game.finishedGames.length >= games;
}

/**
 * Plays a SeatStream's seat with a bot, acting on each view the server sends, to the end of the
 * match or, in money play, of `games` games; resolves with the last game seen. A refusal for a
 * stale etag (the other seat acted first: both may throw for who starts) is decided again on the
 * view that comes with it; any other fails.
 * @param {object} [options] games (1), maxActions (100000), waitMs (the longest wait for a view;
 *   unbounded by default), dropAfter (hang up after that many actions and resume: for tests)
 */
async function playSeat(stream, bot, { games = 1, maxActions = 100000, waitMs, dropAfter = 0 } = {}) {
  let actions = 0;
  for await (const { seat, game, legalActions } of stream.views({ timeoutMs: waitMs })) {
    if (isFinished(game, games)) return game;
    // The other seat may offer to resign at most moments: act only when the server expects it.
    if (!game.toAct.includes(seat)) continue;
    if (actions >= maxActions) throw new Error(`${game.name}: not over after ${maxActions} actions of this seat`);
    try {
      await perform(stream, bot.choose(legalActions));
    } catch (error) {
      if (!(error instanceof TavliError) || error.reason !== 'STALE_ETAG') throw error;
    }
    actions++;
    if (actions === dropAfter) await stream.resume();
  }
  return stream.lastSeen;
}

/**
 * Plays a Seat with a bot over unary calls: each change of the game comes from a WatchGame
 * stream, and each decision is made on ListLegalActions. Resolves with the last game seen.
 * @param {object} [options] as playSeat's (dropAfter aside)
 */
async function playSeatUnary(seat, bot, { games = 1, maxActions = 100000, waitMs } = {}) {
  let game = await seat.game();
  const watch = seat.client.games.watchGame({ name: seat.name, fromSequence: game.eventCount });
  let newest = game;
  let wake = () => {};
  let failure = null;
  watch.on('data', (message) => {
    newest = withFinishedGamesSent(message.game, newest);
    wake();
  });
  watch.on('error', (error) => {
    if (error.code !== status.CANCELLED) failure = TavliError.fromServiceError(error);
    wake();
  });
  const moved = () =>
    new Promise((resolve, reject) => {
      const late = () => reject(new Error(`no news of ${seat.name} came within ${waitMs} ms`));
      const timer = waitMs === undefined ? null : setTimeout(late, waitMs);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  try {
    for (let actions = 0; !isFinished(game, games); ) {
      if (failure) throw failure;
      if (newest.eventCount > game.eventCount) game = newest;
      if (!game.toAct.includes(seat.seat)) {
        if (newest.eventCount <= game.eventCount) await moved();
        continue;
      }
      if (actions++ >= maxActions) throw new Error(`${seat.name}: not over after ${maxActions} actions of this seat`);
      const legal = await seat.legalActions();
      if (legal.etag !== game.etag) {
        game = await seat.game(); // the watch is behind: decide on the game now
        continue;
      }
      try {
        game = await perform(seat, bot.choose(legal));
      } catch (error) {
        if (!(error instanceof TavliError) || error.reason !== 'STALE_ETAG') throw error;
        game = await seat.game();
      }
    }
    return game;
  } finally {
    watch.cancel();
  }
}

/**
 * A bot on the ladder, for the account whose key its client carries: it joins the ladder, follows
 * the account's events (resumed after the last event seen when the connection drops), plays every
 * game it is told of, or that is in progress when it connects, on a PlaySeat stream of its own
 * (resumed too), and accepts every challenge (the random bot plays every variant).
 */
class LadderBot {
  /**
   * @param {TavliClient} client a client connected with the account's apiKey
   * @param {function} makeBot (game) => a bot for that game (a LadderGame: { game, seatToken, ... })
   * @param {object} [options] games (stop once this many games of it have ended; never by
   *   default), log (a line's printer, console.log by default)
   */
  constructor(client, makeBot, { games = Infinity, log = console.log } = {}) {
    this.client = client;
    this.makeBot = makeBot;
    this.games = games;
    this.log = log;
    this.ended = 0;
    this.playing = new Map(); // game name: the promise of its play
    this.events = null;
  }

  /** Joins the ladder and plays until `games` have ended or stop(); resolves with the games ended. */
  async run() {
    await this.join();
    this.events = this.client.events();
    for await (const { gamesInProgress, event } of this.events) {
      for (const game of gamesInProgress) this.play(game);
      if (event) await this.heard(event);
      if (this.ended >= this.games) break;
    }
    await Promise.all(this.playing.values());
    return this.ended;
  }

  /** Stops following the events; the games under way are played to their end. */
  stop() {
    if (this.events) this.events.close();
  }

  /** Joins the ladder, trying again while the server is out of reach. */
  async join() {
    for (;;) {
      try {
        return await this.client.joinLadder();
      } catch (error) {
        if (!(error instanceof TavliError) || !connectionLost(error)) throw error;
        await new Promise((resolve) => setTimeout(resolve, REACH_AGAIN_MS));
      }
    }
  }

  async heard(event) {
    if (event.kind === 'gameStarted') {
      this.play(event.gameStarted);
    } else if (event.kind === 'challengeReceived') {
      try {
        this.play(await this.client.acceptChallenge(event.challengeReceived.name));
      } catch (error) {
        if (!(error instanceof TavliError)) throw error;
        this.log(`challenge ${event.challengeReceived.name} not accepted: ${error}`); // withdrawn or expired meanwhile
      }
    } else if (event.kind === 'gameEnded') {
      this.ended++;
      this.log(`${event.gameEnded.game} ended; rating ${event.gameEnded.rating.toFixed(1)}`);
    } else if (event.kind === 'notice') {
      this.log(`the server says ${event.notice.reason}: ${event.notice.message}`);
    }
  }

  play(game) {
    if (this.playing.has(game.game)) return;
    const played = this.playGame(game).finally(() => this.playing.delete(game.game));
    this.playing.set(game.game, played);
  }

  async playGame(game) {
    let stream = null;
    try {
      stream = await this.client.streamSeat(game.game, game.seatToken, { resume: true });
      this.log(describe(await playSeat(stream, this.makeBot(game))));
    } catch (error) {
      if (!(error instanceof TavliError)) throw error;
      this.log(`${game.game} stopped: ${error}`); // aborted, claimed, or the key revoked
    } finally {
      if (stream) stream.close();
    }
  }
}

// --- run ----------------------------------------------------------------------------------------

const USAGE =
  'usage: TAVLI_SEAT_TOKEN=… node bot.js HOST:PORT GAME [--seed TEXT] [--games N] [--wait SECONDS] ' +
  '[--drop-after N] [--unary --seat 0|1]\n' +
  '       node bot.js --ladder --key KEY [--server HOST:PORT] [--games N] [--seed TEXT]\n' +
  '       (or the key in TAVLI_API_KEY, out of the process list)';

function count(text) {
  return /^\d+$/.test(text) ? Number(text) : NaN;
}

function parseLadderArguments(argv) {
  const options = { key: process.env.TAVLI_API_KEY || '', address: '127.0.0.1:50051', seed: '', games: Infinity };
  for (let i = 0; i < argv.length; i++) {
    const argument = argv[i];
    const value = i + 1 < argv.length ? argv[i + 1] : undefined;
    if (argument === '--ladder') continue;
    if (argument === '--key' && value) options.key = argv[++i];
    else if (argument === '--server' && value) options.address = argv[++i];
    else if (argument === '--seed' && value !== undefined) options.seed = argv[++i];
    else if (argument === '--games' && count(value) >= 1) options.games = count(argv[++i]);
    else return null;
  }
  return options.key ? options : null;
}

function parseArguments(argv) {
  const options = { address: '', name: '', seed: '', games: 1, dropAfter: 0, unary: false, seat: null };
  for (let i = 0; i < argv.length; i++) {
    const argument = argv[i];
    const value = i + 1 < argv.length ? argv[i + 1] : undefined;
    if (argument === '--seed' && value !== undefined) options.seed = argv[++i];
    else if (argument === '--games' && count(value) >= 1) options.games = count(argv[++i]);
    else if (argument === '--wait' && Number(value) > 0) options.waitMs = Number(argv[++i]) * 1000;
    else if (argument === '--drop-after' && count(value) >= 1) options.dropAfter = count(argv[++i]);
    else if (argument === '--seat' && (value === '0' || value === '1')) options.seat = Number(argv[++i]);
    else if (argument === '--unary') options.unary = true;
    else if (argument.startsWith('-')) return null;
    else if (!options.address) options.address = argument;
    else if (!options.name) options.name = argument;
    else return null;
  }
  const complete = options.name && (options.seat !== null) === options.unary && !(options.unary && options.dropAfter);
  return complete ? options : null;
}

function plural(count, noun) {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

function describe(game) {
  const finished = game.finishedGames.at(-1);
  const how = finished
    ? `game ${finished.gameNumber} won by seat ${finished.winner === 'SEAT_0' ? 0 : 1}: ` +
      `${finished.result.replace('GAME_RESULT_', '').toLowerCase()} by ` +
      `${finished.endedBy.replace('GAME_END_', '').toLowerCase()}, ${plural(finished.points, 'point')}`
    : game.phase;
  return `${game.name} over: ${how}; score ${game.score.join('-')}, ${game.eventCount} events`;
}

async function playLadder(argv) {
  const options = parseLadderArguments(argv);
  if (!options) {
    console.error(USAGE);
    return 2;
  }
  const { seed } = options;
  const makeBot = (game) => new RandomBot({ random: seed ? seededRandom(`${seed} ${game.game}`) : Math.random });
  const client = TavliClient.connect(options.address, { apiKey: options.key, timeoutMs: 20000 });
  try {
    const ended = await new LadderBot(client, makeBot, { games: options.games }).run();
    console.log(`${plural(ended, 'game')} ended on the ladder`);
    return 0;
  } catch (error) {
    console.error(`bot.js failed: ${error instanceof TavliError ? error.toString() : error.stack || error}`);
    return 1;
  } finally {
    client.close();
  }
}

async function main(argv, env) {
  if (argv.includes('--ladder')) return playLadder(argv);
  const options = parseArguments(argv);
  const token = env.TAVLI_SEAT_TOKEN || '';
  if (!options || !token) {
    console.error(options ? 'bot.js: set TAVLI_SEAT_TOKEN to the seat\'s token' : USAGE);
    return 2;
  }
  const random = options.seed ? seededRandom(options.seed) : Math.random;
  const bot = new RandomBot({ random });
  const client = TavliClient.connect(options.address, { timeoutMs: 20000 });
  const { games, waitMs, dropAfter } = options;
  let stream = null;
  try {
    await client.waitForReady(10000);
    let game;
    if (options.unary) {
      const seat = new Seat(client, await client.getGame(options.name), options.seat, token);
      game = await playSeatUnary(seat, bot, { games, waitMs });
    } else {
      stream = await client.streamSeat(options.name, token);
      game = await playSeat(stream, bot, { games, waitMs, dropAfter });
    }
    const over = options.unary ? 'unary calls' : `the stream (joined ${plural(stream.joins, 'time')})`;
    console.log(`${describe(game)}; played over ${over}`);
    return 0;
  } catch (error) {
    console.error(`bot.js failed: ${error instanceof TavliError ? error.toString() : error.stack || error}`);
    return 1;
  } finally {
    if (stream) stream.close();
    client.close();
  }
}

module.exports = { RandomBot, LadderBot, seededRandom, perform, isFinished, playSeat, playSeatUnary };

if (require.main === module) {
  main(process.argv.slice(2), process.env).then(
    (code) => {
      process.exitCode = code;
    },
    (error) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
