import { IDENTITY_MESSAGES } from '@lookout/contracts';
import { useCallback } from 'react';
import { useLocation } from 'react-router';
import { PageHeader } from '@/components/layout/page-header';
import { useMessagesVisible } from '../hooks/use-messages-visible';
import { useRedirect } from '../hooks/use-flow-error-handler';
import { useSelfServiceFlow } from '../hooks/use-self-service-flow';
import type { FlowDone } from '../hooks/use-self-service-flow';
import { visibleGroups } from '../lib/ui-node-fns';
import type { NodeGroup } from '../lib/ui-node-fns';
import { FlowFailure } from './flow-body-view';
import { FlowForm } from './flow-form';
import { FlowMessages } from './flow-message';
import { FlowLoading } from './identity-card';

/** Sections in the spec's order (spec 1, section 2.6); a group the server adds comes last. */
const SECTION_ORDER: readonly NodeGroup[] = ['profile', 'password', 'oidc', 'lookup_secret', 'totp', 'webauthn'];

const sectionTitle = (group: NodeGroup): string =>
  (IDENTITY_MESSAGES.settingsSections as Record<string, string>)[group] ?? group;

/**
 * /profile-settings: one section per settings method the server offers (profile, password,
 * social sign-in, backup codes, TOTP, hardware tokens), each its own form.
 */
export function SettingsView() {
  const location = useLocation();
  const redirect = useRedirect();
  const onDone = useCallback(
    (result: FlowDone) => {
      const next = result.continueWith.find((item) => item.action === 'redirect_browser_to');
      if (next?.action === 'redirect_browser_to') redirect(next.redirect_browser_to);
    },
    [redirect],
  );
  const controller = useSelfServiceFlow({
    kind: 'settings',
    params: {},
    returnTo: `${location.pathname}${location.search}`,
    home: '/',
    onDone,
  });
  const { flow } = controller;
  const showMessages = useMessagesVisible(flow);

  let body;
  if (controller.error !== undefined) {
    body = <FlowFailure error={controller.error} onRetry={controller.restart} />;
  } else if (!flow) {
    body = <FlowLoading />;
  } else {
    const offered = visibleGroups(flow.ui.nodes);
    const groups = [
      ...SECTION_ORDER.filter((group) => offered.includes(group)),
      ...offered.filter((group) => !SECTION_ORDER.includes(group)),
    ];
    body = (
      <div className="flex flex-col gap-6">
        {showMessages && <FlowMessages messages={flow.ui.messages} />}
        {groups.map((group) => (
          <section
            key={group}
            aria-labelledby={`settings-${group}`}
            data-testid={`settings-section-${group}`}
            className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm"
          >
            <h2 id={`settings-${group}`} className="mb-4 text-base font-semibold text-slate-900">
              {sectionTitle(group)}
            </h2>
            <FlowForm
              flow={flow}
              only={[group]}
              showFlowMessages={false}
              onSubmit={controller.submit}
              isSubmitting={controller.isSubmitting}
            />
          </section>
        ))}
      </div>
    );
  }

  return (
    <>
      <PageHeader title={IDENTITY_MESSAGES.yourProfile} />
      <div className="mx-auto w-full max-w-2xl">{body}</div>
    </>
  );
}
