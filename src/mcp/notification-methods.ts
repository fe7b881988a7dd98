/** The notifications a change of the content sends, by method: no SDK, so the session registry can name them. */
export const LIST_CHANGED = 'notifications/resources/list_changed';
export const RESOURCE_UPDATED = 'notifications/resources/updated';
export const PROMPTS_LIST_CHANGED = 'notifications/prompts/list_changed';
