/** How long a list waits after the last keystroke before it searches (lists and the inbox). A module of its own: the inbox reads it without loading the list page. */
export const SEARCH_DEBOUNCE_MS = 350;
