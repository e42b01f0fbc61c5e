/**
 * The admins' routes of the management API for channels, models and prices (contract 4.10, "Admins"):
 * an admin's session or an admin access token, as every admin route. Joined into the one table by routes.ts.
 */
import { ADMIN_CHANNELS_PATH, ChannelAnswer, ChannelDeleted, ChannelList, ChannelNameBody, ChannelTestBody, ChannelTestResult, NewChannelBody, UpdateChannelBody } from './channels.ts';
import { ADMIN_MODEL_PRICE_PATH, ADMIN_MODELS_PATH, AdminModelAnswer, AdminModelList, AdminModelsQuery, ModelPriceBody } from './models.ts';
import type { ApiRoute } from './route.ts';

const channelAction = (verb: 'disable' | 'enable', summary: string) => ({
  method: 'POST', path: `${ADMIN_CHANNELS_PATH}/${verb}`, tag: 'channels', summary, auth: 'admin', body: ChannelNameBody,
  response: { status: 200, schema: ChannelAnswer }, errors: ['channel_not_found'],
}) as const satisfies ApiRoute;

export const CHANNEL_ROUTES = {
  listChannels: {
    method: 'GET', path: ADMIN_CHANNELS_PATH, tag: 'channels', summary: 'Every channel, oldest first, with its settings, status and health; never its key', auth: 'admin',
    response: { status: 200, schema: ChannelList }, errors: [],
  },
  addChannel: {
    method: 'POST', path: ADMIN_CHANNELS_PATH, tag: 'channels', summary: 'A new channel, as channel add makes one; the models it serves that have no price yet', auth: 'admin', body: NewChannelBody,
    response: { status: 201, schema: ChannelAnswer }, errors: ['channel_exists'],
  },
  updateChannel: {
    method: 'POST', path: `${ADMIN_CHANNELS_PATH}/update`, tag: 'channels', summary: "Change a channel's settings (its key only when a new one is given)", auth: 'admin', body: UpdateChannelBody,
    response: { status: 200, schema: ChannelAnswer }, errors: ['channel_not_found'],
  },
  disableChannel: channelAction('disable', 'Disable a channel'),
  enableChannel: channelAction('enable', "Enable a channel: this instance forgets its failures"),
  deleteChannel: {
    method: 'POST', path: `${ADMIN_CHANNELS_PATH}/delete`, tag: 'channels', summary: 'Delete a channel', auth: 'admin', body: ChannelNameBody,
    response: { status: 200, schema: ChannelDeleted }, errors: ['channel_not_found'],
  },
  testChannel: {
    method: 'POST', path: `${ADMIN_CHANNELS_PATH}/test`, tag: 'channels', summary: 'One minimal request to the upstream: its status, time and words', auth: 'admin', body: ChannelTestBody,
    response: { status: 200, schema: ChannelTestResult }, errors: ['channel_not_found'],
  },
  listAdminModels: {
    method: 'GET', path: ADMIN_MODELS_PATH, tag: 'channels', summary: 'Every model priced or served by a channel, with its prices; unpriced ones are not served', auth: 'admin', query: AdminModelsQuery,
    response: { status: 200, schema: AdminModelList }, errors: [],
  },
  priceModel: {
    method: 'POST', path: ADMIN_MODEL_PRICE_PATH, tag: 'channels', summary: "Set a model's price, as model price does (free on purpose included)", auth: 'admin', body: ModelPriceBody,
    response: { status: 200, schema: AdminModelAnswer }, errors: ['model_not_found'],
  },
} as const satisfies Record<string, ApiRoute>;
