// The Discord client, as an Activity's page sees it: the parent window of the page's
// iframe, speaking the Embedded App SDK's postMessage protocol ([opcode, payload]; 0
// HANDSHAKE, 1 FRAME, 2 CLOSE). It checks the handshake (version 1, JSON, this
// application's client id, the frame's id) and answers with READY; it answers the
// commands the page may send as Discord's client does (AUTHORIZE with a one-time code from
// the fake Discord's OAuth2, AUTHENTICATE only with a token Discord issued to this user,
// SUBSCRIBE, SET_ORIENTATION_LOCK_STATE, CAPTURE_LOG, the instance's participants) and an
// ERROR for anything else. Everything is recorded in window.discordClient for the test.

const params = new URLSearchParams(location.search);
const clientId = location.hostname.split(".")[0];
const user = params.get("user");
const frameId = params.get("frame");
const instance = params.get("instance");
const platform = params.get("platform") || "desktop";
const HANDSHAKE = 0;
const FRAME = 1;
const CLOSE = 2;

const client = {
  log: [], // [cmd or opcode, args] in order
  subscribed: new Set(),
  authenticated: false,
  closed: null, // the CLOSE the client sent, if any
  participants: [],
  // A layout change by the person (picture-in-picture, a call's grid, back to focused).
  setLayout(mode) {
    if (client.subscribed.has("ACTIVITY_LAYOUT_MODE_UPDATE")) {
      dispatch("ACTIVITY_LAYOUT_MODE_UPDATE", { layout_mode: mode });
    }
  },
};
window.discordClient = client;

const launch = new URLSearchParams({
  frame_id: frameId,
  instance_id: instance,
  platform,
  guild_id: params.get("guild"),
  channel_id: params.get("channel"),
  location_id: `gc-${params.get("guild")}-${params.get("channel")}`,
});
const frame = document.createElement("iframe");
frame.title = "Sahra";
frame.allow = "autoplay; encrypted-media";
frame.src = `${params.get("prefix") || "/"}?${launch}`;

function post(message) {
  frame.contentWindow.postMessage(message, location.origin);
}

function reply(command, data) {
  post([FRAME, { cmd: command.cmd, evt: null, nonce: command.nonce, data }]);
}

function fail(command, code, message) {
  post([FRAME, { cmd: command.cmd, evt: "ERROR", nonce: command.nonce, data: { code, message } }]);
}

function dispatch(evt, data) {
  post([FRAME, { cmd: "DISPATCH", evt, nonce: null, data }]);
}

function close(code, message) {
  client.closed = { code, message };
  post([CLOSE, { code, message }]);
}

async function answer(command) {
  const args = command.args || {};
  switch (command.cmd) {
    case "AUTHORIZE": {
      if (args.client_id !== clientId || args.response_type !== "code") {
        fail(command, 4000, "Invalid client id or response type");
        return;
      }
      const found = await (await fetch(`/harness/code?user=${encodeURIComponent(user)}`)).json();
      reply(command, { code: found.code });
      return;
    }
    case "AUTHENTICATE": {
      const answered = await fetch(`/harness/token?token=${encodeURIComponent(args.access_token || "")}`);
      const owner = answered.ok ? (await answered.json()).user : null;
      if (owner !== user) {
        fail(command, 4009, "Invalid OAuth2 access token");
        return;
      }
      client.authenticated = true;
      reply(command, {
        access_token: args.access_token,
        user: { username: `player${user}`, discriminator: "0", id: user, avatar: null, public_flags: 0, global_name: `Player ${user}` },
        scopes: ["identify"],
        expires: new Date(Date.now() + 604800000).toISOString(),
        application: { description: "", icon: null, id: clientId, name: "Sahra" },
      });
      return;
    }
    case "SUBSCRIBE":
      if (!client.authenticated) {
        fail(command, 4006, "Not authenticated or invalid scope");
        return;
      }
      client.subscribed.add(command.evt);
      reply(command, { evt: command.evt });
      return;
    case "SET_ORIENTATION_LOCK_STATE":
    case "CAPTURE_LOG":
      reply(command, null);
      return;
    case "GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS":
      reply(command, { participants: client.participants });
      return;
    default:
      fail(command, 1000, `Unknown command ${command.cmd}`);
  }
}

window.addEventListener("message", (event) => {
  if (event.source !== frame.contentWindow || !Array.isArray(event.data)) return;
  const [opcode, payload] = event.data;
  if (opcode === HANDSHAKE) {
    client.log.push(["HANDSHAKE", payload]);
    if (payload.v !== 1 || (payload.encoding && payload.encoding !== "json")) {
      close(4004, "Invalid version");
    } else if (payload.client_id !== clientId) {
      close(4000, "Invalid client id");
    } else if (payload.frame_id !== frameId) {
      close(4001, "Invalid origin");
    } else {
      dispatch("READY", {
        v: 1,
        config: { cdn_host: "cdn.discordapp.com", api_endpoint: "//discord.com/api", environment: "production" },
        user: { id: user, username: `player${user}`, discriminator: "0" },
      });
    }
  } else if (opcode === FRAME) {
    if (payload.cmd !== "CAPTURE_LOG") client.log.push([payload.cmd, payload.args || {}]);
    answer(payload);
  } else if (opcode === CLOSE) {
    client.log.push(["CLOSE", payload]);
  }
});

document.body.append(frame);
