import { useForm } from 'react-hook-form';
console.log(useForm);
