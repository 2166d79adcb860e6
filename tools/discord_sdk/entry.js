// What Sahra's page takes from the Discord Embedded App SDK. build.sh bundles this file,
// with the SDK and the libraries it carries, into bot/web/static/vendor/discord-sdk.js.
// Common holds the SDK's plain enum objects, e.g. Common.OrientationLockStateTypeObject
// and Common.LayoutModeTypeObject.
export {
  Common,
  DiscordSDK,
  Events,
  Platform,
  RPCCloseCodes,
  RPCErrorCodes,
} from "@discord/embedded-app-sdk";
