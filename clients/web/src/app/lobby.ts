// The lobby ("#/lobby"), where people and bots meet: sign in with an account's key (or make an
// account where the server allows it), then who is online, the open seeks with Accept, a form to
// post a seek or challenge a named account (the home screen's rule-set controls), the challenges
// made to you with Accept and Decline, and the leaderboards per variant with each account's
// rating history. What it shows of the account's challenges and games is the session's state
// (lobby-state.ts); the lists of who is online and the leaderboards are read as they are shown.

import { Variant } from "../gen/tavli/v1/board_pb";
import {
  AccountKind,
  DeclineReason,
  type Challenge,
  type LeaderboardEntry,
  type OnlineAccount,
} from "../gen/tavli/v1/ladder_service_pb";
import { durationFromMs } from "@bufbuild/protobuf/wkt";
import { getApi, refusalText } from "./api";
import { field, h, keepChildren, setText } from "./dom";
import {
  DECLINE_REASONS,
  challengesToMe,
  kindWords,
  myChallenges,
  openSeeks,
  ratingWords,
  onlineNoteWords,
  ruleSetWords,
  variantWords,
} from "./lobby-state";
import type { LobbySession } from "./lobby-session";
import "./lobby.css";
import { preferencesMenu } from "./preferences-menu";
import { formatRoute } from "./routes";
import type { Screen } from "./screen";
import { buildSettingsForm } from "./settings-form";
import { VARIANT_ENUMS, loadSettings, saveSettings, toRuleSet } from "./settings";

/** How often the open seeks and who is online are read again while the lobby is on show. */
const SEEKS_EVERY_MS = 2000;
const ONLINE_EVERY_MS = 5000;
const BOARD_PAGE = 50;
const HISTORY_PAGE = 20;
const SEEK_MINUTES = 15;

export interface LobbyHost {
  /** The session signed in, or null. */
  session(): LobbySession | null;
  /** Signs in with `key`; throws the server's refusal. */
  signIn(key: string): Promise<void>;
  signOut(): void;
  /** Why the player was signed out last ("" if they were not). */
  signedOutWhy(): string;
}

export function lobbyScreen(root: HTMLElement, host: LobbyHost): Screen {
  const controller = new AbortController();
  const preferences = preferencesMenu();
  document.title = "tavli: the lobby";
  const body = h("div", { class: "lobby-body" });
  root.replaceChildren(
    h(
      "main",
      { class: "lobby" },
      h("nav", { class: "crumbs" }, h("a", { href: "#/" }, "← Home")),
      h(
        "header",
        { class: "masthead" },
        h("div", {}, h("h1", {}, "The lobby"), h("p", {}, "Play people and bots, rated on the ladder.")),
        preferences.element,
      ),
      body,
    ),
  );
  const session = host.session();
  let shown: Screen;
  if (session) {
    shown = signedIn(body, session, host, controller.signal);
  } else {
    shown = signInForms(body, host);
  }
  return {
    destroy() {
      controller.abort();
      shown.destroy();
      preferences.destroy();
    },
  };
}

// --- signing in ----------------------------------------------------------------------------------

function signInForms(body: HTMLElement, host: LobbyHost): Screen {
  const api = getApi();
  const controller = new AbortController();
  const keyInput = h("input", {
    type: "password",
    id: "account-key",
    testid: "account-key",
    autocomplete: "off",
    spellcheck: "false",
    required: true,
  });
  const signInAlert = h("p", { class: "alert", role: "alert", testid: "sign-in-error" }, host.signedOutWhy());
  const signInButton = h("button", { type: "submit", class: "primary", testid: "sign-in" }, "Sign in");
  const signInForm = h(
    "form",
    { class: "card", testid: "sign-in-form", "aria-labelledby": "sign-in-title" },
    h("h2", { id: "sign-in-title" }, "Sign in"),
    field(
      "Your account's key",
      keyInput,
      "The key `tavli accounts create HANDLE` printed, or the one this page showed when you made your account. This browser keeps it until you sign out.",
    ),
    h("div", { class: "actions" }, signInButton),
    signInAlert,
  );
  signInForm.addEventListener("submit", (event) => {
    event.preventDefault();
    void (async () => {
      signInButton.disabled = true;
      setText(signInAlert, "");
      try {
        await host.signIn(keyInput.value.trim());
      } catch (error) {
        setText(signInAlert, `That key does not sign in here: ${refusalText(error)}`);
      } finally {
        signInButton.disabled = false;
      }
    })();
  });

  const handleInput = h("input", {
    type: "text",
    id: "new-handle",
    testid: "new-handle",
    required: true,
    minlength: 3,
    maxlength: 24,
    pattern: "[A-Za-z][A-Za-z0-9_\\-]{2,23}",
    autocomplete: "username",
  });
  const nameInput = h("input", { type: "text", id: "new-display-name", testid: "new-display-name", maxlength: 64, dir: "auto" });
  const createAlert = h("p", { class: "alert", role: "alert", testid: "create-account-error" });
  const createButton = h("button", { type: "submit", testid: "create-account" }, "Make my account");
  const madeKey = h("output", { class: "made-key", testid: "made-key" });
  const goOn = h("button", { type: "button", class: "primary", testid: "go-on-signed-in" }, "I have kept it: go on");
  const madeBox = h(
    "div",
    { class: "share-box", hidden: true },
    h("p", {}, "Your account is made. Its key, shown this once: keep it somewhere safe, to sign in on another browser. This browser keeps it until you sign out."),
    madeKey,
    h("div", { class: "actions" }, goOn),
  );
  goOn.addEventListener("click", () => {
    void host.signIn(madeKey.value).catch((error: unknown) => setText(createAlert, refusalText(error)));
  });
  const createForm = h(
    "form",
    { class: "card", testid: "create-account-form", "aria-labelledby": "create-account-title" },
    h("h2", { id: "create-account-title" }, "New here?"),
    field("Handle", handleInput, "3 to 24 letters, digits, '-' or '_', starting with a letter."),
    field("The name others see (optional)", nameInput),
    h("div", { class: "actions" }, createButton),
    createAlert,
    madeBox,
  );
  createForm.addEventListener("submit", (event) => {
    event.preventDefault();
    void (async () => {
      createButton.disabled = true;
      setText(createAlert, "");
      try {
        const made = await api.ladder.createAccount(
          { handle: handleInput.value.trim(), displayName: nameInput.value.trim(), kind: AccountKind.HUMAN },
          { signal: controller.signal },
        );
        madeKey.value = made.apiKey;
        madeBox.hidden = false;
        createButton.hidden = true;
        goOn.focus();
      } catch (error) {
        if (!controller.signal.aborted) {
          setText(createAlert, refusalText(error));
        }
      } finally {
        createButton.disabled = false;
      }
    })();
  });
  body.replaceChildren(h("div", { class: "lobby-columns" }, signInForm, createForm));
  return { destroy: () => controller.abort() };
}

// --- signed in -----------------------------------------------------------------------------------

function signedIn(body: HTMLElement, session: LobbySession, host: LobbyHost, signal: AbortSignal): Screen {
  const api = getApi();
  const me = session.account;
  const timers: number[] = [];

  const who = h(
    "p",
    { class: "signed-in", testid: "signed-in-as" },
    "Signed in as ",
    h("bdi", { class: "player-name" }, me.displayName || me.handle),
    ` (${me.handle}, ${kindWords(me.kind)}) `,
  );
  const signOutButton = h("button", { type: "button", testid: "sign-out" }, "Sign out");
  signOutButton.addEventListener("click", () => host.signOut());
  const connection = h("p", { class: "note", role: "status", testid: "connection" });
  const news = h("ul", { class: "news", testid: "lobby-news", "aria-live": "polite", "aria-label": "News" });
  const games = h("ul", { class: "lobby-list", testid: "my-games" });
  const gamesCard = h("section", { class: "card", "aria-labelledby": "my-games-title", hidden: true }, h("h2", { id: "my-games-title" }, "Your games in progress"), games);

  // Seeks and challenges.
  const seeks = h("tbody", { testid: "seeks" });
  const seeksNote = h("p", { class: "note" });
  const seeksCard = h(
    "section",
    { class: "card", "aria-labelledby": "seeks-title" },
    h("h2", { id: "seeks-title" }, "Open seeks"),
    h("table", { class: "lobby-table" }, h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Player"), h("th", { scope: "col" }, "Match"), h("th", { scope: "col" }, "Rated"), h("th", { scope: "col" }, h("span", { class: "visually-hidden" }, "Answer")))), seeks),
    seeksNote,
  );
  const incoming = h("ul", { class: "lobby-list", testid: "incoming-challenges" });
  const outgoing = h("ul", { class: "lobby-list", testid: "outgoing-challenges" });
  const incomingCard = h("section", { class: "card", "aria-labelledby": "incoming-title", hidden: true }, h("h2", { id: "incoming-title" }, "Challenges to you"), incoming);
  const outgoingCard = h("section", { class: "card", "aria-labelledby": "outgoing-title", hidden: true }, h("h2", { id: "outgoing-title" }, "Your challenges"), outgoing);
  const actionAlert = h("p", { class: "alert", role: "alert", testid: "lobby-error" });

  // The form: a seek, or a challenge to a named account.
  const rules = buildSettingsForm("lobby-", loadSettings("lobby"), false, false);
  rules.onChange(() => saveSettings("lobby", rules.read()));
  const opponent = h("input", { type: "text", id: "challenge-opponent", testid: "challenge-opponent", maxlength: 24, autocomplete: "off", placeholder: "anyone" });
  const rated = h("input", { type: "checkbox", id: "challenge-rated", testid: "challenge-rated", checked: true });
  const postButton = h("button", { type: "submit", class: "primary", testid: "post-challenge" }, "Post a seek");
  opponent.addEventListener("input", () => setText(postButton, opponent.value.trim() ? "Challenge" : "Post a seek"));
  const postForm = h(
    "form",
    { class: "card", testid: "challenge-form", "aria-labelledby": "challenge-title" },
    h("h2", { id: "challenge-title" }, "Play"),
    rules.basics,
    field("Against (a handle; empty: anyone may accept)", opponent),
    field("Rated (a person and a bot never play rated)", rated),
    h("div", { class: "actions" }, postButton),
    rules.rules,
  );
  postForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const settings = rules.read();
    saveSettings("lobby", settings);
    void act(postButton, () =>
      api.ladder.createChallenge(
        {
          opponent: opponent.value.trim(),
          ruleSet: toRuleSet(settings),
          rated: rated.checked,
          timeToLive: durationFromMs(SEEK_MINUTES * 60_000),
        },
        { signal },
      ),
    );
  });

  // Who is online.
  const onlineList = h("ul", { class: "lobby-list", testid: "online" });
  const onlineNote = h("p", { class: "note" });
  const onlineCard = h(
    "section",
    { class: "card", "aria-labelledby": "online-title" },
    h("h2", { id: "online-title" }, "Online now"),
    onlineList,
    onlineNote,
  );

  // The leaderboards.
  const boardVariant = h(
    "select",
    { id: "board-variant", testid: "board-variant" },
    ...[Variant.BACKGAMMON, Variant.LONG_NARDI, Variant.PLAKOTO, Variant.FEVGA, Variant.TAVLI].map((variant) =>
      h("option", { value: String(variant) }, variantWords(variant)),
    ),
  );
  const boardKind = h(
    "select",
    { id: "board-kind", testid: "board-kind" },
    h("option", { value: String(AccountKind.HUMAN) }, "People"),
    h("option", { value: String(AccountKind.BOT) }, "Bots"),
  );
  const board = h("tbody", { testid: "leaderboard" });
  const boardNote = h("p", { class: "note" });
  const history = h("div", { class: "history", testid: "rating-history", "aria-live": "polite" });
  const boardCard = h(
    "section",
    { class: "card", "aria-labelledby": "board-title" },
    h("h2", { id: "board-title" }, "Leaderboards"),
    h(
      "div",
      { class: "board-choice" },
      field("Variant", boardVariant),
      field("Ladder", boardKind),
    ),
    h(
      "table",
      { class: "lobby-table" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, "Player"), h("th", { scope: "col" }, "Rating"), h("th", { scope: "col" }, "Games"))),
      board,
    ),
    boardNote,
    history,
  );

  body.replaceChildren(
    h("div", { class: "lobby-bar" }, who, signOutButton),
    connection,
    actionAlert,
    news,
    h(
      "div",
      { class: "lobby-columns" },
      h("div", { class: "lobby-main" }, gamesCard, incomingCard, outgoingCard, seeksCard, postForm),
      h("div", { class: "lobby-side" }, onlineCard, boardCard),
    ),
  );

  /** Makes one call for a button, its refusal in the alert line; the lists are read again after. */
  async function act(button: HTMLButtonElement, call: () => Promise<unknown>): Promise<void> {
    button.disabled = true;
    setText(actionAlert, "");
    try {
      await call();
      await session.listChallenges(signal);
    } catch (error) {
      if (!signal.aborted) {
        setText(actionAlert, refusalText(error));
      }
    } finally {
      button.disabled = false;
    }
  }

  // Who is online, by handle, as last read: a seek shows its maker's rating when it is known.
  let online = new Map<string, OnlineAccount>();

  function challenger(challenge: Challenge): HTMLElement {
    const known = online.get(challenge.challenger);
    return h(
      "span",
      {},
      h("bdi", { class: "player-name" }, challenge.challenger),
      known ? h("span", { class: "entry-meta" }, ` ${Math.round(known.rating)}`) : null,
    );
  }

  function seekRow(challenge: Challenge): HTMLElement {
    const mine = challenge.challenger === me.handle;
    const button = mine
      ? h("button", { type: "button", testid: "cancel-seek" }, "Cancel")
      : h("button", { type: "button", class: "primary", testid: "accept-seek" }, "Accept");
    button.addEventListener("click", () =>
      void act(button, () =>
        mine
          ? api.ladder.cancelChallenge({ name: challenge.name }, { signal })
          : api.ladder.acceptChallenge({ name: challenge.name }, { signal }),
      ),
    );
    return h(
      "tr",
      { testid: "seek", "data-challenge": challenge.name },
      h("td", {}, challenger(challenge), mine ? " (you)" : ""),
      h("td", {}, ruleSetWords(challenge.ruleSet)),
      h("td", {}, challenge.rated ? "rated" : "casual"),
      h("td", {}, button),
    );
  }

  function incomingEntry(challenge: Challenge): HTMLElement {
    const accept = h("button", { type: "button", class: "primary", testid: "accept-challenge" }, "Accept");
    const reasonId = `decline-${challenge.name.replace(/\W/g, "-")}`;
    const reason = h(
      "select",
      { id: reasonId, testid: "decline-reason" },
      ...DECLINE_REASONS.map(([value, words]) => h("option", { value: String(value) }, words)),
    );
    const decline = h("button", { type: "button", testid: "decline-challenge" }, "Decline");
    accept.addEventListener("click", () => void act(accept, () => api.ladder.acceptChallenge({ name: challenge.name }, { signal })));
    decline.addEventListener("click", () =>
      void act(decline, () =>
        api.ladder.declineChallenge({ name: challenge.name, reason: Number(reason.value) as DeclineReason }, { signal }),
      ),
    );
    return h(
      "li",
      { testid: "incoming-challenge", "data-challenge": challenge.name },
      h("p", {}, challenger(challenge), ` challenges you: ${ruleSetWords(challenge.ruleSet)}, ${challenge.rated ? "rated" : "casual"}`),
      h("div", { class: "actions" }, accept, h("label", { for: reasonId, class: "visually-hidden" }, "Why you decline"), reason, decline),
    );
  }

  function outgoingEntry(challenge: Challenge): HTMLElement {
    const cancel = h("button", { type: "button", testid: "cancel-challenge" }, "Cancel");
    cancel.addEventListener("click", () => void act(cancel, () => api.ladder.cancelChallenge({ name: challenge.name }, { signal })));
    return h(
      "li",
      { testid: "outgoing-challenge" },
      h("p", {}, "To ", h("bdi", { class: "player-name" }, challenge.opponent), `: ${ruleSetWords(challenge.ruleSet)}, waiting for an answer`),
      h("div", { class: "actions" }, cancel),
    );
  }

  function draw(): void {
    const state = session.state;
    setText(connection, session.connection);
    news.replaceChildren(...state.news.map((line) => h("li", {}, line)));
    const inProgress = [...state.games.values()];
    gamesCard.hidden = inProgress.length === 0;
    showKeyed(games, inProgress, (game) => game.game, (game) =>
        h(
          "li",
          { testid: "my-game" },
          "Against ",
          h("bdi", { class: "player-name" }, game.opponent),
          `: ${ruleSetWords(game.ruleSet)} `,
          h("a", { class: "button", href: formatRoute({ screen: "game", name: game.game, token: game.seatToken }) }, "Go to the table"),
        ),
    );
    const seekList = openSeeks(state);
    showKeyed(seeks, seekList, (seek) => `${seek.name} ${online.get(seek.challenger)?.rating ?? ""}`, seekRow);
    setText(seeksNote, seekList.length ? "" : "No open seeks: post one below, and whoever accepts it first plays you.");
    const toMe = challengesToMe(state);
    incomingCard.hidden = toMe.length === 0;
    showKeyed(incoming, toMe, (challenge) => challenge.name, incomingEntry);
    const mine = myChallenges(state);
    outgoingCard.hidden = mine.length === 0;
    showKeyed(outgoing, mine, (challenge) => challenge.name, outgoingEntry);
  }

  function onlineEntry(account: OnlineAccount): HTMLElement {
    const challenge = h("button", { type: "button", testid: "challenge-account" }, "Challenge");
    challenge.addEventListener("click", () => {
      opponent.value = account.handle;
      setText(postButton, "Challenge");
      postButton.focus();
    });
    return h(
      "li",
      { testid: "online-account", "data-handle": account.handle, "data-kind": kindWords(account.kind) },
      h("bdi", { class: "player-name", dir: "auto" }, account.displayName),
      h("span", { class: "entry-meta" }, ` ${account.handle} · ${kindWords(account.kind)}${account.ladderMember ? " on the ladder" : ""} · ${ratingWords(account.rating, account.deviation)}`),
      account.handle === me.handle ? h("span", { class: "entry-meta" }, " (you)") : challenge,
    );
  }

  async function listOnline(): Promise<void> {
    try {
      const variant = VARIANT_ENUMS[rules.read().variant];
      const answer = await api.ladder.listOnlineAccounts({ variant, pageSize: 100 }, { signal });
      onlineList.replaceChildren(...answer.accounts.map(onlineEntry));
      online = new Map(answer.accounts.map((account) => [account.handle, account]));
      draw();
      setText(onlineNote, onlineNoteWords(answer.accounts.map((account) => account.handle), me.handle, answer.nextPageToken !== ""));
    } catch (error) {
      if (!signal.aborted) {
        setText(onlineNote, `Who is online could not be read: ${refusalText(error)}`);
      }
    }
  }

  async function listSeeks(): Promise<void> {
    try {
      await session.listChallenges(signal);
    } catch (error) {
      if (!signal.aborted) {
        setText(seeksNote, `The seeks could not be read: ${refusalText(error)}`);
      }
    }
  }

  function boardEntry(entry: LeaderboardEntry, variant: Variant): HTMLElement {
    const name = h("button", { type: "button", class: "link", testid: "board-player" }, h("bdi", { dir: "auto" }, entry.displayName));
    name.addEventListener("click", () => void showHistory(entry, variant));
    return h(
      "tr",
      { testid: "board-entry", "data-handle": entry.handle },
      h("td", {}, String(entry.rank)),
      h("td", {}, name, h("span", { class: "entry-meta" }, ` ${entry.handle}`)),
      h("td", { testid: "board-rating" }, ratingWords(entry.rating, entry.deviation)),
      h("td", {}, String(entry.games)),
    );
  }

  async function listBoard(): Promise<void> {
    const variant = Number(boardVariant.value) as Variant;
    const kind = Number(boardKind.value) as AccountKind;
    history.replaceChildren();
    try {
      const answer = await api.ladder.listLeaderboard({ variant, kind, pageSize: BOARD_PAGE }, { signal });
      board.replaceChildren(...answer.entries.map((entry) => boardEntry(entry, variant)));
      setText(boardNote, answer.entries.length ? "Click a player for their rating history." : "Nobody is rated on this ladder yet.");
    } catch (error) {
      if (!signal.aborted) {
        setText(boardNote, `The leaderboard could not be read: ${refusalText(error)}`);
      }
    }
  }

  async function showHistory(entry: LeaderboardEntry, variant: Variant): Promise<void> {
    try {
      const answer = await api.ladder.listRatingHistory({ handle: entry.handle, variant, pageSize: HISTORY_PAGE }, { signal });
      history.replaceChildren(
        h("h3", {}, "Rating history of ", h("bdi", { dir: "auto" }, entry.displayName)),
        h(
          "ol",
          { class: "lobby-list", testid: "history-entries" },
          ...answer.changes.map((change) =>
            h("li", {}, `${change.won ? "Won" : "Lost"} against `, h("bdi", {}, change.opponent), `: ${ratingWords(change.rating, change.deviation)}`),
          ),
        ),
      );
    } catch (error) {
      if (!signal.aborted) {
        history.replaceChildren(h("p", { class: "alert" }, `The rating history could not be read: ${refusalText(error)}`));
      }
    }
  }

  boardVariant.addEventListener("change", () => void listBoard());
  boardKind.addEventListener("change", () => void listBoard());
  rules.onChange(() => void listOnline());
  const unsubscribe = session.subscribe(draw);
  draw();
  void listSeeks();
  void listOnline();
  void listBoard();
  timers.push(window.setInterval(() => void listSeeks(), SEEKS_EVERY_MS));
  timers.push(window.setInterval(() => void listOnline(), ONLINE_EVERY_MS));
  return {
    destroy() {
      unsubscribe();
      timers.forEach((timer) => window.clearInterval(timer));
    },
  };
}

/** Shows one element per item in `parent`, in order, keeping the elements of items shown before
 *  (a reason being chosen, a button being pressed, stay as they are while the lists are read again). */
function showKeyed<T>(parent: HTMLElement, items: readonly T[], keyOf: (item: T) => string, build: (item: T) => HTMLElement): void {
  const shown = new Map<string, Element>();
  for (const child of Array.from(parent.children)) {
    shown.set((child as HTMLElement).dataset.key ?? "", child);
  }
  const next = items.map((item) => {
    const key = keyOf(item);
    const element = shown.get(key) ?? build(item);
    (element as HTMLElement).dataset.key = key;
    return element;
  });
  keepChildren(parent, next);
}
