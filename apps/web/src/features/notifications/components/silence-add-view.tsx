import { SILENCE_FORM_TEXTS } from '@lookout/contracts';
import { NotificationsFrame } from './notifications-frame';
import { SilenceForm } from './silence-form';

/** `/notifications/silences/add` (spec 3 section 2.10): the add-silence form under the tabs. */
export function SilenceAddView() {
  return (
    <NotificationsFrame title={SILENCE_FORM_TEXTS.title}>
      <SilenceForm />
    </NotificationsFrame>
  );
}
