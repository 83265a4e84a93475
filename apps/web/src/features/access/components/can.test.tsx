import { VIEW_MESSAGES } from '@lookout/contracts';
import type { Role } from '@lookout/contracts';
import { can, canAny } from '@lookout/contracts';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PermissionsContext } from '../hooks/use-permissions';
import type { Permissions } from '../hooks/use-permissions';
import { Can } from './can';

function permissions(roles: Role[], status: Permissions['status'] = 'success'): Permissions {
  return {
    userId: '0192a5d4-1111-7000-8000-000000000001',
    status,
    roles,
    can: (resource, action) => status !== 'pending' && can(roles, resource, action),
    canAny: (resources, action) => status !== 'pending' && canAny(roles, resources, action),
    isViewer: false,
    refresh: async () => undefined,
  };
}

function renderCan(value: Permissions, props: Partial<Parameters<typeof Can>[0]> = {}) {
  return render(
    <PermissionsContext value={value}>
      <Can resource="identities" action="write" {...props}>
        <p>guarded</p>
      </Can>
    </PermissionsContext>,
  );
}

describe('<Can>', () => {
  it('renders its children when the roles allow the action', () => {
    renderCan(permissions(['admin']));
    expect(screen.getByText('guarded')).toBeInTheDocument();
  });

  it('renders nothing when they do not, or the Unauthorized view when asked', () => {
    const { container, unmount } = renderCan(permissions(['editor']));
    expect(container).toBeEmptyDOMElement();
    unmount();
    renderCan(permissions(['editor']), { showUnauthorized: true });
    expect(screen.getByText(VIEW_MESSAGES.unauthorized)).toBeInTheDocument();
  });

  it('accepts any of several resources', () => {
    renderCan(permissions(['editor']), { resource: ['identities', 'playbooks'] });
    expect(screen.getByText('guarded')).toBeInTheDocument();
  });

  it('decides nothing while the roles are being read', () => {
    renderCan(permissions([], 'pending'), { showUnauthorized: true, pending: <p>wait</p> });
    expect(screen.getByText('wait')).toBeInTheDocument();
    expect(screen.queryByText(VIEW_MESSAGES.unauthorized)).not.toBeInTheDocument();
  });
});
