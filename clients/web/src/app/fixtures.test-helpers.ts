// Games for the tests, made as the server would send them.
import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { Variant } from "../gen/tavli/v1/board_pb";
import { CubeMode, GameSchema, Phase, Seat, type Game } from "../gen/tavli/v1/games_service_pb";

/** The backgammon start from one side: 2 on the 24, 5 on the 13, 3 on the 8, 5 on the 6. */
export function startPoints(): number[] {
  const points = Array(24).fill(0);
  points[23] = 2;
  points[12] = 5;
  points[7] = 3;
  points[5] = 5;
  return points;
}

export function backgammonGame(overrides: MessageInitShape<typeof GameSchema> = {}): Game {
  const base: MessageInitShape<typeof GameSchema> = {
    name: "games/0123456789abcdef",
    ruleSet: { variant: Variant.BACKGAMMON, matchLength: 5, cube: CubeMode.CUBE, cubeLimit: 64, crawford: true },
    etag: "e1",
    eventCount: 3n,
    score: [0n, 0n],
    gameNumber: 1,
    phase: Phase.ROLLING,
    turn: Seat.SEAT_0,
    cubeValue: 1,
    cubeOwner: Seat.SEAT_UNSPECIFIED,
    seat0Player: { displayName: "Anna" },
    seat1Player: { displayName: "Computer (Heuristic)", playerId: "bot:heuristic" },
    seat0Board: { playerPoints: startPoints(), playerBar: 0, opponentPoints: startPoints(), opponentBar: 0 },
    pipCounts: [167, 167],
    toAct: [Seat.SEAT_0],
  };
  return create(GameSchema, { ...base, ...overrides } as MessageInitShape<typeof GameSchema>);
}
