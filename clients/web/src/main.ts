// The tavli web table: one page whose screens follow the URL fragment (see app/routes.ts).

import "./app/app.css";
import { Code, ConnectError, getApi, refusalText } from "./app/api";
import { accountKey, keepAccountKey } from "./app/account";
import { gameScreen } from "./app/game";
import { homeScreen } from "./app/home";
import { lobbyScreen } from "./app/lobby";
import { LobbySession, type SessionHooks } from "./app/lobby-session";
import { followPreferences, showTheme } from "./app/preferences";
import { formatRoute, parseRoute } from "./app/routes";
import type { Screen } from "./app/screen";

/** How long the final position of a lobby game stays on show before the page goes back to the lobby. */
const BACK_TO_LOBBY_MS = 5000;
const LOBBY = formatRoute({ screen: "lobby" });

const root = document.getElementById("app") ?? document.body;
let current: Screen | null = null;
// The account signed in, followed across screens: the server sees the player there at a table too.
let session: LobbySession | null = null;
let signedOutWhy = "";

function navigate(hash: string): void {
  if (location.hash === hash) {
    show();
  } else {
    location.hash = hash;
  }
}

const hooks: SessionHooks = {
  gameStarted(game) {
    navigate(formatRoute({ screen: "game", name: game.game, token: game.seatToken }));
  },
  gameEnded(ended) {
    const route = parseRoute(location.hash);
    if (route.screen === "game" && route.name === ended.game) {
      window.setTimeout(() => {
        const still = parseRoute(location.hash);
        if (still.screen === "game" && still.name === ended.game) {
          navigate(LOBBY);
        }
      }, BACK_TO_LOBBY_MS);
    }
  },
  signedOut(why) {
    session = null;
    signedOutWhy = why;
    if (parseRoute(location.hash).screen === "lobby") {
      show();
    }
  },
};

async function signIn(key: string): Promise<void> {
  session?.stop();
  session = await LobbySession.signIn(getApi(), key, hooks);
  signedOutWhy = "";
  show();
}

function signOut(): void {
  session?.signOut();
  session = null;
  show();
}

function show(): void {
  current?.destroy();
  current = null;
  const route = parseRoute(location.hash);
  switch (route.screen) {
    case "home":
      current = homeScreen(root, navigate);
      break;
    case "lobby":
      current = lobbyScreen(root, { session: () => session, signIn, signOut, signedOutWhy: () => signedOutWhy });
      break;
    case "game": {
      const home = session?.plays(route.name) ? LOBBY : "#/";
      current = gameScreen(root, { mode: "seat", name: route.name, token: route.token }, navigate, home);
      break;
    }
    case "watch":
      current = gameScreen(root, { mode: "watch", name: route.name, from: route.from }, navigate);
      break;
  }
  window.scrollTo(0, 0);
}

followPreferences(showTheme);
window.addEventListener("hashchange", show);
const kept = accountKey();
if (kept) {
  // Signed in on an earlier visit: the page shows at once, and the lobby once the key is proven.
  LobbySession.signIn(getApi(), kept, hooks).then(
    (signedIn) => {
      session = signedIn;
      if (parseRoute(location.hash).screen === "lobby") {
        show();
      }
    },
    (error: unknown) => {
      // A key the server refuses is forgotten; one it could not be asked about is kept for the next visit.
      if (error instanceof ConnectError && error.code === Code.Unauthenticated) {
        keepAccountKey(null);
      }
      signedOutWhy = `Not signed in: ${refusalText(error)}`;
      if (parseRoute(location.hash).screen === "lobby") {
        show();
      }
    },
  );
}
show();
