// A small helper to build elements in code: h("button", { type: "button", testid: "roll-button" }, "Roll").

type Child = Node | string | null | undefined | false;

export interface Attrs {
  [name: string]: string | number | boolean | undefined | null | EventListener;
}

/** An element with attributes (testid → data-testid, class, on* listeners, booleans) and children. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) {
      continue;
    }
    if (name.startsWith("on") && typeof value === "function") {
      element.addEventListener(name.slice(2).toLowerCase(), value as EventListener);
    } else if (name === "testid") {
      element.setAttribute("data-testid", String(value));
    } else if (name === "class") {
      element.className = String(value);
    } else if (value === true) {
      element.setAttribute(name, "");
    } else {
      element.setAttribute(name, String(value));
    }
  }
  append(element, ...children);
  return element;
}

export function append(parent: Node, ...children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) {
      continue;
    }
    parent.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
  }
}

/** Makes `parent`'s children exactly `next`, in order, touching only the places where they differ:
 *  a child that stays where it is is neither removed nor inserted again (the browser then has
 *  nothing of it to lay out again). Whether anything changed. */
export function keepChildren(parent: Element, next: readonly Node[]): boolean {
  const current = parent.childNodes;
  let changed = false;
  next.forEach((node, index) => {
    const present = current[index];
    if (present !== node) {
      parent.insertBefore(node, present ?? null);
      changed = true;
    }
  });
  while (current.length > next.length) {
    parent.lastChild?.remove();
    changed = true;
  }
  return changed;
}

/** Sets an element's text only when it changes (so that live regions announce only changes). */
export function setText(element: HTMLElement, text: string): void {
  if (element.textContent !== text) {
    element.textContent = text;
  }
}

/**
 * A form field: the control's label, the control (which has its id), and the note under it that
 * describes it, where there is one (words, or the element to keep for changing them later); a
 * checkbox stands before its label.
 */
export function field(label: string, control: HTMLElement, note: string | HTMLElement = ""): HTMLDivElement {
  const labelled = h("label", { for: control.id }, label);
  const described = typeof note === "string" ? (note ? h("span", { class: "note" }, note) : null) : note;
  if (described) {
    described.id ||= `${control.id}-note`;
    control.setAttribute("aria-describedby", described.id);
  }
  return control instanceof HTMLInputElement && control.type === "checkbox"
    ? h("div", { class: "field check" }, control, labelled, described)
    : h("div", { class: "field" }, labelled, control, described);
}

let counter = 0;
/** A unique id for a label's `for`. */
export function uid(prefix: string): string {
  counter += 1;
  return `${prefix}-${counter}`;
}
