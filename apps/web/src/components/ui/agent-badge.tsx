import { NIL_AGENT_ID } from '@lookout/contracts';
import { Server } from 'lucide-react';
import { Link } from 'react-router';

/** Props of {@link AgentBadge}. */
export interface AgentBadgeProps {
  /** The row's agent; the nil id (or none) is this instance, which gets no badge. */
  agent: { id: string | null; name: string | null } | null | undefined;
  /** Where the badge leads (spec 2 section 2.1: `/settings/agents?id={agentId}`); plain text without it. */
  href?: string;
}

/**
 * The name of the agent a row came from, as a small badge beside the row's name (spec 2
 * sections 2.6, 2.7). Rows of this instance (the nil agent id) show nothing.
 */
export function AgentBadge({ agent, href }: AgentBadgeProps) {
  if (!agent?.id || agent.id === NIL_AGENT_ID) return null;
  const label = agent.name ?? agent.id;
  const className =
    'inline-flex max-w-40 shrink-0 items-center gap-1 rounded-full bg-indigo-50 px-2 py-0.5 text-xs font-medium text-indigo-800 ring-1 ring-indigo-200 ring-inset';
  const content = (
    <>
      <Server aria-hidden className="size-3 shrink-0" />
      <span className="truncate">{label}</span>
    </>
  );
  return href ? (
    <Link
      to={href}
      title={`Agent ${label}`}
      // Inside clickable rows the badge opens the agent, not the row.
      onClick={(event) => event.stopPropagation()}
      className={`${className} hover:bg-indigo-100`}
    >
      {content}
    </Link>
  ) : (
    <span title={`Agent ${label}`} className={className}>
      {content}
    </span>
  );
}
