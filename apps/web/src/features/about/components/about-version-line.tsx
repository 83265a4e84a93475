import { UNKNOWN_VERSION } from '@lookout/contracts';
import { VersionLine } from '@/components/layout/version-line';
import { useAbout } from '../api/get-about';

/** The user menu's version line, with the backend version read from `GET /api/about`. */
export function AboutVersionLine() {
  const about = useAbout();
  const backendVersion = about.isError ? UNKNOWN_VERSION : about.data?.Version;
  return <VersionLine backendVersion={backendVersion} />;
}
