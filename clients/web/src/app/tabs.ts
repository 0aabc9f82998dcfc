// Tabs as the ARIA pattern has them: a tablist of buttons, one panel shown at a time, the arrow
// keys (and Home / End) moving between tabs.

import { h } from "./dom";

export interface Tab {
  /** Its name in ids and test ids: the tab is `tab-NAME`, its panel `panel-NAME`. */
  name: string;
  label: string;
  panel: HTMLElement;
}

export interface Tabs {
  /** The tablist followed by the panels. */
  element: HTMLElement;
  select(name: string): void;
}

export function buildTabs(label: string, tabs: Tab[]): Tabs {
  const buttons = tabs.map((tab) =>
    h("button", { type: "button", role: "tab", id: `tab-${tab.name}`, testid: `tab-${tab.name}`, "aria-controls": `panel-${tab.name}` }, tab.label),
  );
  for (const tab of tabs) {
    tab.panel.id = `panel-${tab.name}`;
    tab.panel.setAttribute("role", "tabpanel");
    tab.panel.setAttribute("aria-labelledby", `tab-${tab.name}`);
  }

  function select(name: string, focus = false): void {
    tabs.forEach((tab, i) => {
      const chosen = tab.name === name;
      buttons[i].setAttribute("aria-selected", String(chosen));
      buttons[i].tabIndex = chosen ? 0 : -1;
      tab.panel.hidden = !chosen;
      if (chosen && focus) {
        buttons[i].focus();
      }
    });
  }

  buttons.forEach((button, i) => {
    button.addEventListener("click", () => select(tabs[i].name));
    button.addEventListener("keydown", (event) => {
      const to = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: tabs.length - 1 }[event.key];
      if (to === undefined) {
        return;
      }
      event.preventDefault();
      select(tabs[(to + tabs.length) % tabs.length].name, true);
    });
  });
  select(tabs[0].name);

  const list = h("div", { role: "tablist", class: "tabs", "aria-label": label }, ...buttons);
  return { element: h("div", { class: "tabbed" }, list, ...tabs.map((tab) => tab.panel)), select: (name) => select(name) };
}
