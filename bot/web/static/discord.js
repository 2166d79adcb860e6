// The page's Discord platform layer: the page as a Discord Activity. Discord runs it in an
// iframe at https://<client id>.discordsays.com with the launch in the query (frame_id,
// instance_id, platform, …). Discord's own SDK (vendored, loaded only here) does the
// handshake with the Discord client; the page then asks Discord to authorise it
// ("identify" only) and hands the one-time code to the server, which proves who the person
// is and which channel's table this is (bot/web/activity.py). Nothing the client says is
// trusted by the page or the server; the server sends back the user's access token, with
// which the SDK is authenticated. No call can throw into the page.
//
// Inside Discord the root element gets the class "discord" (its mobile safe areas become
// --sahra-inset-*), data-discord = desktop | mobile, and data-layout = focused | compact
// (picture-in-picture or the grid of a call: only the trick and the scores are shown).

import { browserPlatform } from "./telegram.js";

const CLIENT_HOST = /^(\d{1,21})\.discordsays\.com$/; // an application id (a snowflake)
const LAUNCH = ["frame_id", "instance_id", "platform"];
const WAIT_MS = 10000; // the Discord client's READY, or the page is not in Discord

export function discordLaunch() {
  const query = new URLSearchParams(location.search);
  return CLIENT_HOST.test(location.hostname) && LAUNCH.every((name) => query.get(name));
}

function within(promise, ms) {
  let timer = 0;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error("Discord did not answer")), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

async function safely(call) {
  try {
    return await call();
  } catch (error) {
    console.warn("Discord:", error && error.message ? error.message : error);
    return undefined;
  }
}

// Resolves once the Discord client has answered the handshake (READY); rejects outside
// Discord, or if the SDK cannot load.
export async function startDiscord() {
  const clientId = CLIENT_HOST.exec(location.hostname)[1];
  const { Common, DiscordSDK, Events } = await import("./vendor/discord-sdk.js");
  const sdk = new DiscordSDK(clientId);
  await within(sdk.ready(), WAIT_MS);
  const root = document.documentElement;
  root.classList.add("discord");
  root.dataset.discord = sdk.platform === "mobile" ? "mobile" : "desktop";
  root.dataset.layout = "focused";
  let authenticated = false;

  const layout = ({ layout_mode: mode }) => {
    const focused = mode === Common.LayoutModeTypeObject.FOCUSED || mode === undefined;
    root.dataset.layout = focused ? "focused" : "compact";
  };

  return {
    instance: sdk.instanceId,
    platform: { ...browserPlatform(), inside: true, platform: `discord-${root.dataset.discord}` },
    // A fresh one-time code for each first hello (a code is good once).
    async code() {
      const { code } = await sdk.commands.authorize({
        client_id: clientId,
        response_type: "code",
        state: "",
        prompt: "none",
        scope: ["identify"],
      });
      return code;
    },
    // The server's proof, handed to the SDK: its other commands need it.
    async authenticate(accessToken) {
      if (authenticated) return;
      const done = await safely(() => sdk.commands.authenticate({ access_token: accessToken }));
      if (!done) return;
      authenticated = true;
      if (sdk.platform === "mobile") {
        // A hand of thirteen cards and four seats need the phone upright.
        const portrait = Common.OrientationLockStateTypeObject.PORTRAIT;
        await safely(() =>
          sdk.commands.setOrientationLockState({
            lock_state: portrait,
            picture_in_picture_lock_state: portrait,
            grid_lock_state: Common.OrientationLockStateTypeObject.UNLOCKED,
          }),
        );
      }
      await safely(() => sdk.subscribe(Events.ACTIVITY_LAYOUT_MODE_UPDATE, layout));
    },
  };
}
