// The ARIA live region: each move and the game's end, said once.

let region = null;

export function attach(element) { region = element; }

export function announce(text) {
  if (!region || !text) return;
  // Clearing first makes a screen reader say a repeated sentence again.
  region.textContent = "";
  requestAnimationFrame(() => { region.textContent = text; });
}
