/**
 * The kubelet's channel framing over WebSocket (apimachinery `wsstream`): every message starts
 * with the number of the channel it belongs to. On the binary protocols (`channel.k8s.io`,
 * `v4.channel.k8s.io`, `v5.channel.k8s.io`) that is one byte followed by the bytes; on the
 * base64 ones (`base64.channel.k8s.io`, `v4.base64.channel.k8s.io`) the channel is an ASCII
 * digit ('0' + n) followed by the bytes in base64. `v5` adds a close signal: channel 255 with
 * one byte naming the channel the sender will write no more to (stdin's half-close).
 */

export const V5_BINARY = 'v5.channel.k8s.io';
export const V4_BINARY = 'v4.channel.k8s.io';
export const V4_BASE64 = 'v4.base64.channel.k8s.io';
export const V1_BINARY = 'channel.k8s.io';
export const V1_BASE64 = 'base64.channel.k8s.io';

/** The channel of v5's close signal. */
export const CLOSE_CHANNEL = 255;

/** Whether a negotiated subprotocol frames its payloads in base64. */
export function isBase64Protocol(protocol: string): boolean {
  return protocol === V4_BASE64 || protocol === V1_BASE64;
}

/** One message for `channel` carrying `data`. */
export function encodeFrame(channel: number, data: Buffer, base64 = false): Buffer {
  if (!base64) return Buffer.concat([Buffer.of(channel), data]);
  return Buffer.from(`${String.fromCharCode(48 + channel)}${data.toString('base64')}`, 'latin1');
}

/** The channel and payload of one message; undefined for an empty message or a base64 one that is not. */
export function decodeFrame(message: Buffer, base64 = false): { channel: number; data: Buffer } | undefined {
  if (message.length === 0) return undefined;
  if (!base64) return { channel: message[0], data: message.subarray(1) };
  const channel = message[0] - 48;
  if (channel < 0 || channel > 9) return undefined;
  return { channel, data: Buffer.from(message.subarray(1).toString('latin1'), 'base64') };
}
