/** The English defaults of the strings only the turn actions show (a locale pack or `strings` overrides them). */
export const EN_TURN_STRINGS = {
  copyMessage: 'Copy answer',
  rateUp: 'Good answer',
  rateDown: 'Bad answer',
  feedbackComment: 'Add a comment',
  sources: 'Sources',
  regenerate: 'Regenerate',
  editQuestion: 'Edit question',
  sendEdit: 'Send edited question',
  versions: 'Versions',
  previousVersion: 'Previous version',
  nextVersion: 'Next version',
};
