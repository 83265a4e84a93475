import { errorText, type ActionRunner } from './action-types.js';

/**
 * `notification`: one message (title, Markdown message) through the notification module's
 * senders, to a notification connection or a shoutrrr-style service URL, as rules send.
 */
export const runNotification: ActionRunner<'notification'> = async (spec, context) => {
  if (!context.sendNotification)
    return { ok: false, result: {}, error: 'notification: senders are not available here' };
  try {
    const type = await context.sendNotification(
      { connection: spec.connection, url: spec.url, properties: spec.properties },
      { title: spec.title, body: spec.message },
      context.signal,
      context.secrets,
    );
    return { ok: true, result: { logs: `sent '${spec.title}' through ${type}` } };
  } catch (error) {
    return { ok: false, result: {}, error: `notification: ${errorText(error)}` };
  }
};
