// The page's ARIA live region: short news (a move, the game's end, a refusal),
// said once. Pages without a region of their own get a hidden polite one.

let region = null;

export function attach(element) { region = element; }

function ensureRegion() {
  if (region && region.isConnected) return region;
  region = document.createElement("p");
  region.className = "visually-hidden";
  region.setAttribute("aria-live", "polite");
  document.body.append(region);
  return region;
}

export function announce(text) {
  if (!text) return;
  const target = ensureRegion();
  // Clearing first makes a screen reader say a repeated sentence again.
  target.textContent = "";
  requestAnimationFrame(() => { target.textContent = text; });
}
