'use strict';
/**
 * A simple bot: plays a random legal play, takes every double, rejects every resignation, and
 * (where the cube may be turned) doubles now and then so that the cube gets used.
 *
 * It decides from a ListLegalActions answer alone ({ actions, plays, etag }); the driver makes
 * the call for the chosen action on the seat.
 */

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

/** Makes a bot's choice through a Seat; resolves with the game after it. */
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

module.exports = { RandomBot, perform };
