/** The share of an element that must be in view before it plays its entrance. */
const REVEAL_THRESHOLD = 0.2;

/**
 * Plays the entrance of every `[data-reveal]` element (index.css) once, when it is first scrolled
 * into view. Plain DOM, so static sections need no React; an island's elements keep the mark
 * after hydrating, since React leaves attributes it does not own alone.
 */
export function revealOnScroll(root: ParentNode = document) {
  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        entry.target.setAttribute('data-revealed', '');
        observer.unobserve(entry.target);
      }
    },
    { threshold: REVEAL_THRESHOLD },
  );
  for (const element of root.querySelectorAll('[data-reveal]')) observer.observe(element);
}
