/** The English defaults of the words the widget element says itself (a locale pack or `strings` overrides them). */
export const EN_WIDGET_STRINGS = {
  widgetUnsupported: 'Can’t show this part of the answer.',
  widgetSubmitted: 'Submitted',
  widgetSending: 'Sending…',
  widgetFailed: 'That didn’t go through. Try again.',
  widgetStale: 'This card changed. Reload to see it as it is now.',
};
