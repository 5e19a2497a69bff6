/**
 * Whether a link can be opened only on the computer that made it: its host is a loopback name or
 * address (`localhost`, 127.0.0.0/8, `::1`), as with Kiln's default HOST and no PUBLIC_URL
 * (issue 32, item 9). A phone pointed at its QR code would open its own loopback, not Kiln.
 */
export function onlyOnThisComputer(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) ||
    host === '[::1]' ||
    // An IPv4-mapped loopback address, as the URL parser writes it.
    /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(host)
  );
}

/** What to say of such a link: who can open it, and how to make one that others can. */
export const THIS_COMPUTER_ONLY = {
  lead: 'This link works on this computer only:',
  body: 'Kiln is at a loopback address, which on a phone or another computer means that device itself. To share with them, start Kiln with PUBLIC_URL set to an address they can reach (and HOST to listen there), for example',
  example: 'HOST=0.0.0.0 PUBLIC_URL=http://192.168.1.20:8080 npm start',
  after:
    'with your computer’s address on the network, or a public https:// address in front of Kiln.',
};
