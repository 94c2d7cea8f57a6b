/** The English defaults of the strings only the composer's extras show (a locale pack or `strings` overrides them). */
export const EN_COMPOSER_EXTRAS_STRINGS = {
  attach: 'Attach',
  removeAttachment: 'Remove {title}',
  cancelUpload: 'Cancel uploading {title}',
  attachmentUploading: 'Uploading {title}',
  attachmentTooLarge: 'Larger than {max}',
  attachmentTooMany: 'At most {max} files per message',
  attachmentTypeUnsupported: 'Files of type {type} can’t be attached',
  attachmentQuotaExceeded: 'Your stored files are full',
  attachmentFailed: 'Not uploaded: {reason}',
  effort: 'Effort',
  effortLow: 'Low',
  effortMedium: 'Medium',
  effortHigh: 'High',
  effortXhigh: 'Extra high',
  effortMax: 'Max',
};
