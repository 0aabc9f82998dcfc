// A game against the computer, made the one way the page makes it (from the home page, and again
// as a rematch): the game created, the bot seated at its seat with that seat's token, and the page
// of the player's own seat to go to.

import type { MessageInitShape } from "@bufbuild/protobuf";
import { DiceMode, Seat, type PlayerSchema, type RuleSet } from "../gen/tavli/v1/games_service_pb";
import { newRequestId, type Api } from "./api";
import { formatRoute } from "./routes";

export interface ComputerGame {
  ruleSet?: RuleSet;
  diceMode?: DiceMode;
  seat0Player: MessageInitShape<typeof PlayerSchema>;
  seat1Player: MessageInitShape<typeof PlayerSchema>;
  /** The seat the computer plays. */
  computerSeat: Seat;
  /** The bot that plays it ("" for the server's default). */
  bot: string;
}

/** Creates the game and seats the bot; the address of the player's seat's page in it. */
export async function startComputerGame(api: Api, wanted: ComputerGame, signal: AbortSignal): Promise<string> {
  const created = await api.games.createGame(
    {
      ruleSet: wanted.ruleSet,
      diceMode: wanted.diceMode ?? DiceMode.UNSPECIFIED,
      requestId: newRequestId(),
      seat0Player: wanted.seat0Player,
      seat1Player: wanted.seat1Player,
    },
    { signal },
  );
  const name = created.game?.name ?? "";
  const [computer, player] = wanted.computerSeat === Seat.SEAT_0 ? [created.seat0Token, created.seat1Token] : [created.seat1Token, created.seat0Token];
  await api.bots.seatBot({ name, seatToken: computer, bot: wanted.bot }, { signal });
  return formatRoute({ screen: "game", name, token: player });
}
