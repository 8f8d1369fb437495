/** A tiny element builder: the app is plain DOM, no framework. */
export type Child = Node | string | number | null | undefined | false | readonly Child[];
type Handler = (event: Event) => void;
export type Props = Readonly<
  Record<string, string | number | boolean | null | undefined | Handler>
>;

function append(parent: Node, child: Child): void {
  if (child === null || child === undefined || child === false) return;
  if (Array.isArray(child)) {
    for (const c of child as readonly Child[]) append(parent, c);
  } else if (child instanceof Node) {
    parent.appendChild(child);
  } else if (typeof child === 'string' || typeof child === 'number') {
    parent.appendChild(document.createTextNode(String(child)));
  }
}

function setProp(el: Element, key: string, value: Props[string]): void {
  if (typeof value === 'function') {
    el.addEventListener(key.slice(2).toLowerCase(), value);
  } else if (value === null || value === undefined || value === false) {
    return;
  } else if (key === 'class') {
    el.setAttribute('class', String(value));
  } else if (key === 'style') {
    // Through the CSSOM: the Content-Security-Policy (style-src 'self') blocks style attributes.
    (el as HTMLElement).style.cssText = String(value);
  } else {
    el.setAttribute(key, value === true ? '' : String(value));
  }
}

/** `h('button', {class: 'x', onclick}, 'text', child)` */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) setProp(el, key, value);
  append(el, children);
  return el;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

export function svg(
  tag: string,
  attrs: Readonly<Record<string, string | number>> = {},
  ...children: SVGElement[]
): SVGElement {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, String(value));
  for (const child of children) el.appendChild(child);
  return el;
}

/** Replaces a container's content, keeping keyboard focus on the element with the same `data-focus`. */
export function replaceChildren(container: Element, ...children: Child[]): void {
  const active = document.activeElement;
  const key =
    active instanceof HTMLElement && container.contains(active)
      ? active.dataset['focus']
      : undefined;
  // A text box drawn again keeps where its cursor was, so typing goes on where it was.
  const caret =
    active instanceof HTMLInputElement ? [active.selectionStart, active.selectionEnd] : null;
  container.replaceChildren();
  append(container, children);
  if (key !== undefined) {
    const again = container.querySelector<HTMLElement>(`[data-focus="${CSS.escape(key)}"]`);
    again?.focus();
    if (again instanceof HTMLInputElement && caret?.[0] != null && caret[1] != null)
      try {
        again.setSelectionRange(caret[0], caret[1]);
      } catch {
        // An input without a text cursor (a number, a date) has none to keep.
      }
  }
}

export const $ = <E extends Element = HTMLElement>(root: ParentNode, selector: string): E | null =>
  root.querySelector<E>(selector);
