/** SPEC 9: picker 60%, sub-dialogs 30%; on a phone those would be unusably thin, so they fill it. */
export const pickerDialogWidth = (narrow: boolean) => (narrow ? 'calc(100vw - 16px)' : '60%');
export const subDialogWidth = (narrow: boolean) => (narrow ? 'calc(100vw - 32px)' : '30%');
