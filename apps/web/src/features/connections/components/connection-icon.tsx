import type { ConnectionType } from '@lookout/contracts';
import { clsx } from 'clsx';
import {
  Archive,
  ArchiveRestore,
  BellRing,
  BookUser,
  Cloud,
  CloudCog,
  Database,
  Folder,
  FolderTree,
  Globe,
  Hash,
  Mail,
  Monitor,
  Network,
  UsersRound,
  Webhook,
  Workflow,
} from 'lucide-react';
import type { LucideIcon } from 'lucide-react';
// One SVG file per brand, not the package's index: that is a single 5 MB module, slow to
// transform in tests and development even though a build would shake it down.
import postgresSvg from 'simple-icons/icons/postgresql.svg?raw';
import mysqlSvg from 'simple-icons/icons/mysql.svg?raw';
import prometheusSvg from 'simple-icons/icons/prometheus.svg?raw';
import elasticsearchSvg from 'simple-icons/icons/elasticsearch.svg?raw';
import mongoSvg from 'simple-icons/icons/mongodb.svg?raw';
import redisSvg from 'simple-icons/icons/redis.svg?raw';
import googleCloudSvg from 'simple-icons/icons/googlecloud.svg?raw';
import gcsSvg from 'simple-icons/icons/googlecloudstorage.svg?raw';
import kubernetesSvg from 'simple-icons/icons/kubernetes.svg?raw';
import githubSvg from 'simple-icons/icons/github.svg?raw';
import gitlabSvg from 'simple-icons/icons/gitlab.svg?raw';
import dynatraceSvg from 'simple-icons/icons/dynatrace.svg?raw';
import gitSvg from 'simple-icons/icons/git.svg?raw';
import jmeterSvg from 'simple-icons/icons/apachejmeter.svg?raw';
import discordSvg from 'simple-icons/icons/discord.svg?raw';
import googleChatSvg from 'simple-icons/icons/googlechat.svg?raw';
import iftttSvg from 'simple-icons/icons/ifttt.svg?raw';
import mattermostSvg from 'simple-icons/icons/mattermost.svg?raw';
import matrixSvg from 'simple-icons/icons/matrix.svg?raw';
import ntfySvg from 'simple-icons/icons/ntfy.svg?raw';
import opsgenieSvg from 'simple-icons/icons/opsgenie.svg?raw';
import pushbulletSvg from 'simple-icons/icons/pushbullet.svg?raw';
import rocketchatSvg from 'simple-icons/icons/rocketdotchat.svg?raw';
import telegramSvg from 'simple-icons/icons/telegram.svg?raw';
import zulipChatSvg from 'simple-icons/icons/zulip.svg?raw';

/** Brand marks from Simple Icons, as their SVG text. */
const BRAND_SVGS: Partial<Record<ConnectionType, string>> = {
  postgres: postgresSvg,
  mysql: mysqlSvg,
  prometheus: prometheusSvg,
  elasticsearch: elasticsearchSvg,
  mongo: mongoSvg,
  redis: redisSvg,
  google_cloud: googleCloudSvg,
  gcs: gcsSvg,
  kubernetes: kubernetesSvg,
  github: githubSvg,
  gitlab: gitlabSvg,
  dynatrace: dynatraceSvg,
  git: gitSvg,
  jmeter: jmeterSvg,
  discord: discordSvg,
  google_chat: googleChatSvg,
  ifttt: iftttSvg,
  mattermost: mattermostSvg,
  matrix: matrixSvg,
  ntfy: ntfySvg,
  opsgenie: opsgenieSvg,
  pushbullet: pushbulletSvg,
  rocketchat: rocketchatSvg,
  telegram: telegramSvg,
  zulip_chat: zulipChatSvg,
};

/**
 * A Lucide symbol for what the type is, where Simple Icons has no mark: it leaves out brands
 * whose owners asked it to (Microsoft, AWS, Slack and a few others).
 */
const SYMBOLS: Record<ConnectionType, LucideIcon> = {
  postgres: Database,
  mysql: Database,
  sql_server: Database,
  http: Globe,
  prometheus: Database,
  elasticsearch: Database,
  mongo: Database,
  ldap: BookUser,
  redis: Database,
  windows: Monitor,
  google_cloud: Cloud,
  gcs: Archive,
  sftp: Network,
  aws: Cloud,
  s3: Archive,
  kubernetes: Cloud,
  azure_devops: Workflow,
  azure: CloudCog,
  github: Workflow,
  gitlab: Workflow,
  restic: ArchiveRestore,
  smb: FolderTree,
  dynatrace: Globe,
  git: Workflow,
  jmeter: Globe,
  discord: Hash,
  email: Mail,
  google_chat: Hash,
  ifttt: Webhook,
  mattermost: Hash,
  matrix: Hash,
  ntfy: BellRing,
  opsgenie: BellRing,
  pushbullet: BellRing,
  pushover: BellRing,
  rocketchat: Hash,
  slack: Hash,
  slackwebhook: Hash,
  teams: UsersRound,
  telegram: Hash,
  webhook: Webhook,
  zulip_chat: Hash,
  generic_webhook: Webhook,
  folder: Folder,
};

/** The `d` of a Simple Icons file (each holds one path on a 24 x 24 box). */
const pathOf = (svg: string): string | undefined => /<path d="([^"]+)"/.exec(svg)?.[1];

const BRAND_PATHS: Partial<Record<ConnectionType, string>> = Object.fromEntries(
  Object.entries(BRAND_SVGS).map(([type, svg]) => [type, pathOf(svg)]),
);

export interface ConnectionIconProps {
  type: ConnectionType;
  className?: string;
}

/** The type's mark, decorative (the type's name is always written beside it). */
export function ConnectionIcon({ type, className }: ConnectionIconProps) {
  const classes = clsx('size-4 shrink-0 text-slate-600', className);
  const path = BRAND_PATHS[type];
  if (path) {
    return (
      <svg aria-hidden viewBox="0 0 24 24" fill="currentColor" className={classes} data-icon={type}>
        <path d={path} />
      </svg>
    );
  }
  const SymbolIcon = SYMBOLS[type];
  return <SymbolIcon aria-hidden className={classes} data-icon={type} />;
}
