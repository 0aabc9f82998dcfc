// The tavli web table: one page whose screens follow the URL fragment (see app/routes.ts).

import "./app/app.css";
import { gameScreen } from "./app/game";
import { homeScreen } from "./app/home";
import { followPreferences, showTheme } from "./app/preferences";
import { parseRoute } from "./app/routes";
import type { Screen } from "./app/screen";

const root = document.getElementById("app") ?? document.body;
let current: Screen | null = null;

function navigate(hash: string): void {
  if (location.hash === hash) {
    show();
  } else {
    location.hash = hash;
  }
}

function show(): void {
  current?.destroy();
  current = null;
  const route = parseRoute(location.hash);
  switch (route.screen) {
    case "home":
      current = homeScreen(root, navigate);
      break;
    case "game":
      current = gameScreen(root, { mode: "seat", name: route.name, token: route.token }, navigate);
      break;
    case "watch":
      current = gameScreen(root, { mode: "watch", name: route.name, from: route.from }, navigate);
      break;
  }
  window.scrollTo(0, 0);
}

followPreferences(showTheme);
window.addEventListener("hashchange", show);
show();
