/**
 * The Relationships tab of a config item and manual links (spec 3 sections 2.1, 3, 8 and 9;
 * 19_catalog_links.sql; docs/catalog.md): texts, URL parameters, graph geometry and the
 * marker of a link made by a person.
 */

/** config_relationships.selector_id of a link made in the console (scraper_id is NULL). */
export const MANUAL_LINK_SELECTOR = 'manual';

/** Deepest walk the tab asks related_configs_recursive for (ui-calls 3.5: max_depth=10). */
export const RELATIONSHIP_MAX_DEPTH = 10;

export const RELATIONSHIP_GRAPH = {
  /** Space between nodes of one rank, px (spec 3 section 9). */
  nodeSpacing: 100,
  /** Space between ranks, px (spec 3 section 9). */
  rankSpacing: 120,
  /** This many related items of one type under one node are drawn as one expandable node. */
  collapseGroupFrom: 3,
  /** A node with more children than this shows them only once clicked. */
  collapseChildrenAbove: 3,
  nodeWidth: 220,
  nodeHeight: 56,
} as const;

export const RELATIONSHIP_DIRECTIONS = ['TB', 'LR'] as const;
export type RelationshipDirection = (typeof RELATIONSHIP_DIRECTIONS)[number];
export const RELATIONSHIP_EDGE_STYLES = ['curved', 'straight', 'step'] as const;
export type RelationshipEdgeStyle = (typeof RELATIONSHIP_EDGE_STYLES)[number];
export const RELATIONSHIP_VIEWS = ['table', 'graph'] as const;
export type RelationshipView = (typeof RELATIONSHIP_VIEWS)[number];

/**
 * Address parameters of the tab: the toggles as the original keeps them (outgoing defaults
 * on, incoming off, `relation=soft` for soft links), the view, the graph's options and the
 * filters.
 */
export const RELATIONSHIP_PARAMS = {
  outgoing: 'outgoing',
  incoming: 'incoming',
  relation: 'relation',
  view: 'view',
  direction: 'layout',
  edgeStyle: 'edges',
  configTypes: 'configTypes',
  labels: 'labels',
  relationship: 'relationship',
  status: 'status',
  health: 'health',
  tag: 'tag',
} as const;

export const RELATIONSHIP_TEXTS = {
  tab: 'Relationships',
  components: 'Components',
  outgoing: 'Outgoing',
  incoming: 'Incoming',
  soft: 'Soft',
  table: 'Table',
  graph: 'Graph',
  view: 'View',
  filters: {
    configTypes: 'Config Types',
    labels: 'Labels',
    relationship: 'Relationship',
    status: 'Status',
    health: 'Health',
    tag: 'Tag',
  },
  relationshipOptions: [
    { value: 'outgoing', label: 'Outgoing' },
    { value: 'incoming', label: 'Incoming' },
  ],
  layout: 'Layout',
  directions: { TB: 'Top to bottom', LR: 'Left to right' } satisfies Record<RelationshipDirection, string>,
  edgeStyle: 'Edges',
  edgeStyles: { curved: 'Curved', straight: 'Straight', step: 'Step' } satisfies Record<RelationshipEdgeStyle, string>,
  columns: { name: 'Name', type: 'Type', status: 'Status', health: 'Health', relation: 'Relationship', tags: 'Tags' },
  none: 'No related items',
  deleted: 'Deleted',
  /** An intermediary node standing for n items of one type. */
  group: (count: number, type: string) => `${count} ${type}`,
  /** A collapsed node's control. */
  showChildren: (count: number) => `Show ${count} related`,
  hideChildren: 'Hide related',
  expandGroup: 'Expand',
  link: 'Link',
  linkTitle: 'Link to a config item',
  linkTarget: 'Config item',
  linkDirection: 'Direction',
  linkDirections: { outgoing: 'This item → the chosen item', incoming: 'The chosen item → this item' },
  linkSearch: 'Search for configs',
  linkRequired: 'Please select a config item',
  linkSubmit: 'Link',
  cancel: 'Cancel',
  manual: 'manual',
  unlink: 'Unlink',
  unlinkTitle: 'Remove link',
  unlinkConfirm: (name: string) => `Remove the manual link with ${name}?`,
} as const;

/** Spec 3 section 8. */
export const CONFIG_LINK_TOASTS = {
  linked: 'config link successful',
  unlinked: 'Deleted config link successfully',
} as const;

/** The link picker offers at most this many items (spec 3 section 9). */
export const CONFIG_LINK_PICKER_LIMIT = 50;
