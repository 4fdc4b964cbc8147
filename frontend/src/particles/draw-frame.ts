import { SEGMENT_FLOATS, type FieldView } from './field-view';

/** How the background looks: the brand blue, kept faint so text stays readable over it. */
export const PARTICLE_STYLE = {
  color: '#0d6ea8',
  particleRadius: 2,
  particleAlpha: 0.5,
  /** Opacity of a link between two particles at the same point; it fades to 0 at the link distance. */
  linkAlpha: 0.4,
  lineWidth: 1,
} as const;

/**
 * Draws the field in CSS px (the context is already scaled to the device pixel ratio): one
 * stroked path per opacity level, then one filled path for all particles.
 */
export function drawFrame(ctx: CanvasRenderingContext2D, view: FieldView, width: number, height: number): void {
  const { f32, u32, buckets, field } = view;
  const style = PARTICLE_STYLE;
  ctx.clearRect(0, 0, width, height);
  ctx.strokeStyle = style.color;
  ctx.fillStyle = style.color;
  ctx.lineWidth = style.lineWidth;

  const segments = view.segmentsAt();
  const ends = view.bucketEndsAt();
  let start = 0;
  for (let level = 0; level < buckets; level++) {
    const end = u32[ends + level];
    if (end > start) {
      ctx.globalAlpha = (style.linkAlpha * (level + 0.5)) / buckets;
      ctx.beginPath();
      for (let k = segments + start * SEGMENT_FLOATS; k < segments + end * SEGMENT_FLOATS; k += SEGMENT_FLOATS) {
        ctx.moveTo(f32[k], f32[k + 1]);
        ctx.lineTo(f32[k + 2], f32[k + 3]);
      }
      ctx.stroke();
    }
    start = end;
  }

  const positions = view.positionsAt();
  const r = style.particleRadius;
  ctx.globalAlpha = style.particleAlpha;
  ctx.beginPath();
  for (let i = positions, last = positions + 2 * field.count; i < last; i += 2) {
    ctx.moveTo(f32[i] + r, f32[i + 1]);
    ctx.arc(f32[i], f32[i + 1], r, 0, 2 * Math.PI);
  }
  ctx.fill();
}
