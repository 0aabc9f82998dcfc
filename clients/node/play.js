#!/usr/bin/env node
'use strict';
/**
 * Plays one complete game of backgammon (a money game with the cube, to the end of its first
 * game), 1-point matches of long nardi, Plakoto and Fevga, and a 3-point Greek tavli match against
 * a tavli server, both seats driven by the random bot through the Node client, and prints a
 * summary of each.
 *
 *   node play.js HOST:PORT [--seed TEXT]
 *
 * --seed makes a run reproducible: seeded dice on the server and a seeded bot. Exits 0 when all
 * the games were played to their end and the server's record agrees, 1 on any failure, 2 on bad usage.
 */

const { TavliClient, TavliError, status } = require('./tavli');
const { RandomBot, perform, seededRandom } = require('./bot');

const MAX_ACTIONS = 5000; // a random game takes a few hundred; more means the loop is stuck

const USAGE = 'usage: node play.js HOST:PORT [--seed TEXT]';

function parseArguments(argv) {
  const options = { address: '', seed: '' };
  for (let i = 0; i < argv.length; i++) {
    const argument = argv[i];
    if (argument === '--seed' && i + 1 < argv.length) options.seed = argv[++i];
    else if (argument === '-h' || argument === '--help') return null;
    else if (!argument.startsWith('-') && !options.address) options.address = argument;
    else return null;
  }
  return options.address ? options : null;
}

function isOver(game, matchLength) {
  return matchLength > 0 ? game.phase === 'PHASE_MATCH_OVER' : game.finishedGames.length > 0;
}

/** Which seat to ask first: the one expected to act. */
function askOrder(game) {
  const turn = game.turn === 'SEAT_1' ? 1 : 0;
  const answering = game.phase === 'PHASE_DOUBLED' || game.phase === 'PHASE_RESIGNING';
  const first = answering ? 1 - turn : turn;
  return [first, 1 - first];
}

/** Checks that acting out of turn fails with FAILED_PRECONDITION, reason NOT_YOUR_TURN. */
async function checkOutOfTurnError(seats, game) {
  const waiting = seats[game.turn === 'SEAT_1' ? 0 : 1];
  await waiting.game(); // a fresh etag, so that the refusal is about the turn and not the etag
  try {
    await waiting.roll();
  } catch (error) {
    if (!(error instanceof TavliError)) throw error;
    if (error.code !== status.FAILED_PRECONDITION || error.reason !== 'NOT_YOUR_TURN') {
      throw new Error(`rolling out of turn gave ${error}, not FAILED_PRECONDITION NOT_YOUR_TURN`);
    }
    return error;
  }
  throw new Error('rolling out of turn was not refused');
}

// What the one resignation offered asks for: the most the variant's game can be lost by.
const RESIGN_LEVELS = { backgammon: 'backgammon', 'long-nardi': 'mars', plakoto: 'gammon', fevga: 'gammon' };

async function playOne(client, { label, variant, matchLength, ruleSet, seed, bot, resignAfter }) {
  const { game: created, seats } = await client.createGame({
    variant,
    matchLength,
    ruleSet,
    diceSeed: seed ? `${seed}/${variant}` : '',
  });
  const counts = { moves: 0, actions: 0, doubles: 0, resignations: 0 };
  let game = created;
  let refusal = null;
  for (; !isOver(game, matchLength); counts.actions++) {
    if (counts.actions >= MAX_ACTIONS) throw new Error(`${label}: not over after ${MAX_ACTIONS} actions`);
    if (!refusal && game.phase === 'PHASE_ROLLING') refusal = await checkOutOfTurnError(seats, game);
    let acted = false;
    for (const index of askOrder(game)) {
      const seat = seats[index];
      const legal = await seat.legalActions();
      if (legal.actions.length === 0) continue;
      let choice = bot.choose(legal);
      if (resignAfter && counts.moves >= resignAfter && counts.resignations === 0 &&
          legal.actions.includes('ACTION_RESIGN') && game.phase === 'PHASE_ROLLING') {
        // Exercise OfferResignation and RejectResignation once: the bot answers with a reject.
        choice = { action: 'ACTION_RESIGN', level: RESIGN_LEVELS[variant] };
      }
      game = await perform(seat, choice);
      if (choice.action === 'ACTION_PLAY') counts.moves++;
      if (choice.action === 'ACTION_DOUBLE') counts.doubles++;
      if (choice.action === 'ACTION_RESIGN') counts.resignations++;
      acted = true;
      break;
    }
    if (!acted) throw new Error(`${label}: neither seat may act in ${game.phase}`);
  }

  // The server's record must agree with what was played.
  const stored = await client.getGame(created.name);
  if (!isOver(stored, matchLength)) throw new Error(`${label}: the server does not show the game over`);
  const events = await client.listGameEvents(created.name);
  const plays = events.filter((event) => event.kind === 'EVENT_KIND_PLAY').length;
  if (plays !== counts.moves) throw new Error(`${label}: ${counts.moves} moves made, the log holds ${plays}`);
  // A match's last game decides it (an earlier Plakoto game may be drawn); a money game's first.
  const finished = stored.finishedGames[matchLength ? stored.finishedGames.length - 1 : 0];
  return { label, name: created.name, stored, finished, counts, refusal };
}

function describe({ label, name, stored, finished, counts, refusal }) {
  const winner = finished.winner === 'SEAT_0' ? 'seat 0' : 'seat 1';
  const result = finished.result.replace('GAME_RESULT_', '').toLowerCase();
  const points = `${finished.points} point${finished.points === 1 ? '' : 's'}`;
  return [
    `${label}: ${name} won by ${winner}: ${result} by ${finished.endedBy.replace('GAME_END_', '').toLowerCase()}, ${points} (cube ${finished.cubeValue})`,
    `  ${counts.moves} moves, ${counts.actions} actions, ${counts.doubles} doubles, ` +
      `${counts.resignations} resignations offered; score ${stored.score.join('-')}; ` +
      `out of turn: ${refusal.codeName} ${refusal.reason} "${refusal.message}"`,
  ].join('\n');
}

async function main(argv) {
  const options = parseArguments(argv);
  if (!options) {
    console.error(USAGE);
    return 2;
  }
  const random = options.seed ? seededRandom(options.seed) : Math.random;
  const bot = new RandomBot({ random });
  const client = TavliClient.connect(options.address, { timeoutMs: 20000 });
  const started = Date.now();
  try {
    await client.waitForReady(10000);
    const games = [
      { label: 'backgammon (money game)', variant: 'backgammon', matchLength: 0, ruleSet: { cube: 'CUBE_MODE_CUBE' } },
      { label: 'long nardi (1-point match)', variant: 'long-nardi', matchLength: 1, ruleSet: {}, resignAfter: 10 },
      { label: 'plakoto (1-point match)', variant: 'plakoto', matchLength: 1, ruleSet: {}, resignAfter: 10 },
      { label: 'fevga (1-point match)', variant: 'fevga', matchLength: 1, ruleSet: {} },
      { label: 'tavli (3-point match)', variant: 'tavli', matchLength: 3, ruleSet: {} },
    ];
    for (const game of games) {
      console.log(describe(await playOne(client, { ...game, seed: options.seed, bot })));
    }
    console.log(`all games over in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return 0;
  } catch (error) {
    console.error(`play.js failed: ${error instanceof TavliError ? error.toString() : error.stack || error}`);
    return 1;
  } finally {
    client.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    console.error(error);
    process.exitCode = 1;
  },
);
