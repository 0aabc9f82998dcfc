// The table's sounds, made with WebAudio (no sound files): a short click for a checker moved and a
// rattle of clicks for a roll. Played only when the player has turned sounds on.

import type { BoardState, SideCheckers } from "../board/model";
import { currentPreferences } from "./preferences";

export type TableSound = "checker" | "dice";

function sameCheckers(a: SideCheckers, b: SideCheckers): boolean {
  return a.bar === b.bar && a.off === b.off && a.points.every((count, i) => count === b.points[i]);
}

/** The sounds of going from one shown board to the next: dice newly rolled, checkers moved. */
export function soundsOf(before: BoardState | null, after: BoardState): TableSound[] {
  if (before === null) {
    return [];
  }
  const sounds: TableSound[] = [];
  const rolled = after.dice.length > 0 && (before.dice.join() !== after.dice.join() || before.diceSide !== after.diceSide);
  if (rolled) {
    sounds.push("dice");
  }
  if (!sameCheckers(before.me, after.me) || !sameCheckers(before.them, after.them)) {
    sounds.push("checker");
  }
  return sounds;
}

let audio: AudioContext | null = null;

/** One click: a burst of noise through a band-pass filter, dying away in a few milliseconds. */
function click(context: AudioContext, at: number, pitch: number, volume: number): void {
  const length = Math.ceil(context.sampleRate * 0.04);
  const buffer = context.createBuffer(1, length, context.sampleRate);
  const samples = buffer.getChannelData(0);
  for (let i = 0; i < length; i++) {
    samples[i] = (Math.random() * 2 - 1) * Math.exp(-i / (length / 8));
  }
  const source = context.createBufferSource();
  source.buffer = buffer;
  const filter = context.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = pitch;
  filter.Q.value = 1.5;
  const gain = context.createGain();
  gain.gain.value = volume;
  source.connect(filter).connect(gain).connect(context.destination);
  source.start(at);
}

/** Play a sound if sounds are on (and the browser has WebAudio). */
export function playSound(sound: TableSound): void {
  if (!currentPreferences().sounds || typeof AudioContext === "undefined") {
    return;
  }
  audio ??= new AudioContext();
  const context = audio;
  if (context.state === "suspended") {
    void context.resume();
  }
  const now = context.currentTime;
  if (sound === "checker") {
    click(context, now, 1800, 0.8);
  } else {
    [0, 0.06, 0.11, 0.19].forEach((delay, i) => click(context, now + delay, 3200 - i * 300, 0.5));
  }
}

/** Follows the boards a screen shows and plays the sounds of each change. */
export class TableSounds {
  private shown: BoardState | null = null;

  follow(state: BoardState): void {
    for (const sound of soundsOf(this.shown, state)) {
      playSound(sound);
    }
    this.shown = state;
  }
}
