// What the router holds of the screen on show: enough to take it down when the route changes.
export interface Screen {
  destroy(): void;
}
