import type { TopologyComponent } from './topology-types';

/**
 * The address a card's title opens: `/topology/{id}` with the page's filters, and
 * `refererId` naming the page the user came from when that page is not the component's own
 * parent, so the breadcrumb can lead back (spec 3 section 2.2). Null for the page's own card.
 */
export function componentHref(
  component: Pick<TopologyComponent, 'id' | 'path' | 'parent_id'>,
  search: URLSearchParams,
  pageId: string | undefined,
): string | null {
  if (pageId && component.id === pageId) return null;
  const params = new URLSearchParams(search);
  params.delete('refererId');
  const parentOnPath = (component.path ?? '').split('.').filter(Boolean).pop() ?? component.parent_id ?? undefined;
  if (pageId && parentOnPath !== pageId) params.set('refererId', pageId);
  const query = params.toString();
  return `/topology/${encodeURIComponent(component.id)}${query ? `?${query}` : ''}`;
}

/** The breadcrumb trail's component ids: the path to the component, the referer, the component. */
export function breadcrumbIds(
  component: Pick<TopologyComponent, 'path'> | null | undefined,
  id: string | undefined,
  refererId: string | undefined,
): string[] {
  const ids = [...(component?.path ?? '').split('.'), refererId ?? '', id ?? ''].map((part) => part.trim());
  const unique: string[] = [];
  for (const part of ids) if (part && !unique.includes(part)) unique.push(part);
  return unique;
}

/** The children a component page shows; the component itself when it has none. */
export function pageComponents(components: readonly TopologyComponent[], id: string | undefined): TopologyComponent[] {
  if (!id) return components.filter((component) => component.name || component.title);
  const self = components[0];
  const children = (self?.components ?? []).filter((child) => (child.name || child.title) && child.id !== id);
  if (children.length > 0) return children;
  return self ? [self] : [];
}
