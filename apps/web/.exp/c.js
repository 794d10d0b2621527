import TextField from '@mui/material/TextField';
console.log(TextField);
