import type { NotificationConnectionType } from '@lookout/contracts';
import type { Sender } from './channel.js';
import {
  sendDiscord,
  sendGoogleChat,
  sendMattermost,
  sendRocketChat,
  sendSlack,
  sendSlackWebhook,
  sendTeams,
  sendTelegram,
} from './chat-senders.js';
import {
  sendIfttt,
  sendMatrix,
  sendNtfy,
  sendOpsgenie,
  sendPushbullet,
  sendPushover,
  sendZulip,
} from './push-senders.js';
import { sendEmail } from './smtp-sender.js';
import { sendGenericWebhook, sendToFolder, sendWebhook } from './webhook-senders.js';

/** One sender per notification connection type. */
export const SENDERS: Record<NotificationConnectionType, Sender> = {
  discord: sendDiscord,
  email: sendEmail,
  google_chat: sendGoogleChat,
  ifttt: sendIfttt,
  mattermost: sendMattermost,
  matrix: sendMatrix,
  ntfy: sendNtfy,
  opsgenie: sendOpsgenie,
  pushbullet: sendPushbullet,
  pushover: sendPushover,
  rocketchat: sendRocketChat,
  slack: sendSlack,
  slackwebhook: sendSlackWebhook,
  teams: sendTeams,
  telegram: sendTelegram,
  zulip_chat: sendZulip,
  generic_webhook: sendGenericWebhook,
  webhook: sendWebhook,
  folder: sendToFolder,
};
