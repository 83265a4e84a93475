import { TOPOLOGY_CARD_SIZES, TOPOLOGY_CARD_WIDTH, type TopologyCardSize } from '@lookout/contracts';

/** A card's size: a named size or a width in px (the slider). */
export type CardSize = TopologyCardSize | number;

export function isCardSize(value: string | undefined): value is TopologyCardSize {
  return value !== undefined && Object.hasOwn(TOPOLOGY_CARD_SIZES, value);
}

/** The card's width in px. */
export function cardWidth(size: CardSize): number {
  return typeof size === 'number' ? size : TOPOLOGY_CARD_SIZES[size];
}

/**
 * Small and medium cards hide extra details (spec 3 section 2.2): they show the headline
 * metrics only. A slider width counts as medium or smaller below the large width.
 */
export function isCompact(size: CardSize): boolean {
  return cardWidth(size) < TOPOLOGY_CARD_SIZES.large;
}

/** The slider's value from storage: a number within 250–768 px, else the default. */
export function clampCardWidth(value: unknown): number {
  const number = typeof value === 'number' ? value : Number.parseInt(String(value), 10);
  if (!Number.isFinite(number)) return TOPOLOGY_CARD_WIDTH.default;
  return Math.min(TOPOLOGY_CARD_WIDTH.max, Math.max(TOPOLOGY_CARD_WIDTH.min, Math.round(number)));
}
