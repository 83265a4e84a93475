import { VIEW_MESSAGES } from '@lookout/contracts';
import { Link, useSearchParams } from 'react-router';
import { usePageTitle } from '@/lib/page-title';
import { identityClasses } from './flow-node';

/**
 * The Bad session page (spec 1, section 2.4): `?error_code=BAD_SESSION` asks the user to sign
 * out and in again; any other code reads 'Unknown error'. 'Go back' leads to /.
 */
export function BadSessionView() {
  const [searchParams] = useSearchParams();
  const message =
    searchParams.get('error_code') === 'BAD_SESSION' ? VIEW_MESSAGES.badSession : VIEW_MESSAGES.unknownError;
  usePageTitle(message === VIEW_MESSAGES.badSession ? 'Bad Session' : message);
  return (
    <main className="flex min-h-full items-center justify-center bg-slate-50 px-4 py-12">
      <section className="w-full max-w-md rounded-lg border border-slate-200 bg-white p-6 text-center shadow-sm">
        <h1 className="text-base font-semibold text-slate-900">{message}</h1>
        <Link to="/" className={`${identityClasses.link} mt-4 inline-block text-sm`}>
          {VIEW_MESSAGES.goBack}
        </Link>
      </section>
    </main>
  );
}
