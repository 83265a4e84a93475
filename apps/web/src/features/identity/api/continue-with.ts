import type { ContinueWith as SdkContinueWith } from '@ory/client-fetch';
import type { ContinueWith } from './flow-types';

/** Keeps the `continue_with` items the pages act on, in the order Kratos sent them. */
export function toContinueWith(items: SdkContinueWith[] | undefined): ContinueWith[] {
  return (items ?? []).map((item): ContinueWith => {
    switch (item.action) {
      case 'redirect_browser_to':
        return { action: 'redirect_browser_to', redirect_browser_to: item.redirect_browser_to };
      case 'show_verification_ui':
        return { action: 'show_verification_ui', flow: { id: item.flow.id, url: item.flow.url } };
      case 'show_settings_ui':
        return { action: 'show_settings_ui', flow: { id: item.flow.id, url: item.flow.url } };
      case 'show_recovery_ui':
        return { action: 'show_recovery_ui', flow: { id: item.flow.id, url: item.flow.url } };
      default:
        return { action: 'other' };
    }
  });
}
