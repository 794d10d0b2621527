import Dialog from '@mui/material/Dialog';
console.log(Dialog);
