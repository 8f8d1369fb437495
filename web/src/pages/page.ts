/** A mounted page: its element and how to stop it (sockets, timers, listeners). */
export interface Page {
  readonly el: HTMLElement;
  destroy(): void;
}
